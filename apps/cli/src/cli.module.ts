import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AuditFeatureModule } from '@app/features/audit';
import { OnboardingModule, CREDENTIALS, CredentialsModule } from '@app/onboarding';
import type { AppConfig } from '@app/config';
import { InfrastructureModule, ProjectorModule } from '@app/infrastructure';
import { PayoutAccountsAtStartModule, providerMigrations, ReconciliationModule } from '@app/payments';

/**
 * The service's own command and query handlers, without HTTP or workers. A projector runs too: a
 * standby beside a running service, the active one on an embedded database nobody else has open.
 */
@Module({})
class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        // The provider's tables too: the sandbox's statement is read from its books.
        InfrastructureModule.forRoot(config, { migrations: [CREDENTIALS, ...providerMigrations(config)] }),
        CqrsModule.forRoot(),
        CredentialsModule,
        OnboardingModule,
        PayoutAccountsAtStartModule,
        ReconciliationModule,
        ProjectorModule,
        // The audit's readers: the integrity check, the trial balance.
        AuditFeatureModule,
      ],
    };
  }
}

export function createCliContext(config: AppConfig): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: false });
}
