import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AccountsModule, CREDENTIALS, CredentialsModule } from '@app/accounts';
import { AuditLogReader } from '@app/audit';
import type { AppConfig } from '@app/config';
import { InfrastructureModule, ProjectorModule } from '@app/infrastructure';
import { LedgerReader } from '@app/read-models';

/**
 * The service's own command and query handlers, without HTTP or workers. A projector runs too: a
 * standby beside a running service, the active one on an embedded database nobody else has open.
 */
@Module({})
class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [InfrastructureModule.forRoot(config, { migrations: [CREDENTIALS] }), CqrsModule.forRoot(), CredentialsModule, AccountsModule, ProjectorModule],
      providers: [AuditLogReader, LedgerReader],
    };
  }
}

export function createCliContext(config: AppConfig): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: false });
}
