import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CallbacksModule } from '../callbacks/callbacks.module';
import { SchedulingModule } from '../scheduling/scheduling.module';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), SchedulingModule, CallbacksModule],
  controllers: [HealthController, MetricsController],
})
export class OperationsModule {}
