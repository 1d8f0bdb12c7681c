import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { CREDENTIALS, CredentialsModule, LegacyModeAtStartModule } from '@app/onboarding';
import { CallbackDeliveryModule } from '@app/callback-delivery';
import type { AppConfig } from '@app/config';
import { createLogger, InfrastructureModule, PinoNestLogger, ProjectorModule, workerModules } from '@app/infrastructure';
import { PaymentWorkModule, PayoutAccountsAtStartModule, providerMigrations } from '@app/payments';

/** Everything but HTTP: the projector (ROLE=projector), or callbacks and scheduled payment work (ROLE=worker). */
@Module({})
class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        InfrastructureModule.forRoot(config, { migrations: [CREDENTIALS, ...providerMigrations(config)] }),
        CqrsModule.forRoot(),
        CredentialsModule,
        LegacyModeAtStartModule,
        PayoutAccountsAtStartModule,
        ...workerModules(config, { projector: ProjectorModule, workers: [PaymentWorkModule, CallbackDeliveryModule] }),
      ],
    };
  }
}

export async function createWorker(config: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(new PinoNestLogger(createLogger(config)));
  return app;
}
