import { type DynamicModule, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AppConfig } from '@app/config';
import { InfrastructureModule } from '../../api/src/infrastructure/infrastructure.module';
import { ProjectorService } from '../../api/src/infrastructure/projector.service';

@Module({})
class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: WorkerModule, imports: [InfrastructureModule.forRoot(config)], providers: [ProjectorService] };
  }
}

export async function createWorker(config: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
    logger: config.logLevel === 'silent' ? false : undefined,
  });
  app.enableShutdownHooks();
  return app;
}
