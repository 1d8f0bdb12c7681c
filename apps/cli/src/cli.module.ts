import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import type { AppConfig } from '@app/config';
import { AuditModule } from '../../api/src/audit/audit.module';
import { InfrastructureModule } from '../../api/src/infrastructure/infrastructure.module';
import { ProjectorService } from '../../api/src/infrastructure/projector.service';
import { MerchantsModule } from '../../api/src/merchants/merchants.module';

/**
 * The service's own command and query handlers, without HTTP or workers. A projector runs too: a
 * standby beside a running service, the active one on an embedded database nobody else has open.
 */
@Module({})
class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [InfrastructureModule.forRoot(config), CqrsModule.forRoot(), MerchantsModule, AuditModule],
      providers: [ProjectorService],
    };
  }
}

export function createCliContext(config: AppConfig): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: false });
}
