import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { schedulerFor } from '@app/scheduling';
import { PaymentsModule } from '../payments.module';
import { PAYMENT_WORK, PAYMENT_WORK_QUEUE, type PaymentJob, paymentJobId } from './payment-job';
import { PaymentWorkReactor } from './payment-work.reactor';

/** Loaded by processes whose ROLE includes the workers (`all`, `worker`): expiries, refunds and the reconciler. */
@Module({
  imports: [PaymentsModule],
  providers: [
    {
      provide: PAYMENT_WORK,
      useFactory: (config: AppConfig) => schedulerFor<PaymentJob>(config, { queue: PAYMENT_WORK_QUEUE, jobId: paymentJobId }),
      inject: [APP_CONFIG],
    },
    PaymentWorkReactor,
  ],
  exports: [PAYMENT_WORK],
})
export class PaymentWorkModule {}
