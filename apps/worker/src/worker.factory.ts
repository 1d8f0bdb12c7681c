import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import type { AppConfig } from '@app/config';
import { InfrastructureModule } from '../../api/src/infrastructure/infrastructure.module';
import { createLogger, PinoNestLogger } from '../../api/src/operations/logging';
import { ProjectorService } from '../../api/src/infrastructure/projector.service';
import { CallbacksModule } from '../../api/src/callbacks/callbacks.module';
import { SchedulingModule } from '../../api/src/scheduling/scheduling.module';

/** Everything but HTTP: the projector (ROLE=projector), or callbacks and scheduled payment work (ROLE=worker). */
@Module({})
class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [InfrastructureModule.forRoot(config), CqrsModule.forRoot(), SchedulingModule, CallbacksModule],
      providers: [ProjectorService],
    };
  }
}

export async function createWorker(config: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(new PinoNestLogger(createLogger(config)));
  return app;
}
