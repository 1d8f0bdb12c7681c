import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import type { Queue } from 'bullmq';
import { APP_CONFIG } from '@app/config';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { OBSERVED_QUEUES, observedQueues } from './observed-queues';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, MetricsController],
  providers: [{ provide: OBSERVED_QUEUES, useFactory: observedQueues, inject: [APP_CONFIG] }],
  exports: [OBSERVED_QUEUES],
})
export class OperationsModule implements OnApplicationShutdown {
  constructor(@Inject(OBSERVED_QUEUES) private readonly queues: Queue[]) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled(this.queues.map((queue) => queue.close()));
  }
}
