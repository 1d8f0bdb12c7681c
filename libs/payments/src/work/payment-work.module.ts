import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { schedulerFor } from '@app/scheduling';
import { PaymentsModule } from '../payments.module';
import { PAYMENT_WORK, PAYMENT_WORK_QUEUE, type PaymentJob, paymentJobId } from './payment-job';
import { AutoReleases } from './auto-releases';
import { Expiries } from './expiries';
import { PaymentWorkReactor } from './payment-work.reactor';
import { PayoutPeriods } from './payout-periods';
import { Payouts } from './payouts';
import { ProviderQuestions } from './provider-questions';
import { Refunds } from './refunds';
import { RequirementDeadlines } from './requirement-deadlines';

/** Loaded by processes whose ROLE includes the workers (`all`, `worker`): expiries, auto-releases, refunds, payouts, scheduled payout periods, the provider questions and past-due requirements' restrictions. */
@Module({
  imports: [PaymentsModule],
  providers: [
    {
      provide: PAYMENT_WORK,
      useFactory: (config: AppConfig) => schedulerFor<PaymentJob>(config, { queue: PAYMENT_WORK_QUEUE, jobId: paymentJobId }),
      inject: [APP_CONFIG],
    },
    Expiries,
    AutoReleases,
    ProviderQuestions,
    PayoutPeriods,
    Refunds,
    Payouts,
    RequirementDeadlines,
    PaymentWorkReactor,
  ],
  exports: [PAYMENT_WORK],
})
export class PaymentWorkModule {}
