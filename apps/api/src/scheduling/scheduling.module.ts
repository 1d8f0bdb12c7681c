import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { PaymentsModule } from '../payments/payments.module';
import { BullmqScheduler } from './bullmq-scheduler';
import { InProcessScheduler } from './in-process-scheduler';
import { PaymentWorkReactor } from './payment-work.reactor';
import { type PaymentJob, paymentJobId, SCHEDULER } from './scheduler.port';

@Module({
  imports: [PaymentsModule],
  providers: [
    {
      provide: SCHEDULER,
      useFactory: (config: AppConfig) =>
        config.redisUrl
          ? new BullmqScheduler<PaymentJob>({ queue: 'payment-work', redisUrl: config.redisUrl, prefix: config.redisPrefix, jobId: paymentJobId })
          : new InProcessScheduler<PaymentJob>(paymentJobId),
      inject: [APP_CONFIG],
    },
    PaymentWorkReactor,
  ],
  exports: [SCHEDULER],
})
export class SchedulingModule {}
