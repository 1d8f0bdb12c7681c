import { Inject, Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@app/event-store';
import { CLOCK, type Clock } from '@app/infrastructure';
import type { Scheduler } from '@app/scheduling';
import { ProcessPayout } from '../flow/process-payout/process-payout';
import { PAYMENT_WORK, type PaymentJob, referenced } from './payment-job';
import type { PaymentWork } from './payment-work';

/**
 * Each payout requested is sent at once. One the provider has under way is asked about once more when
 * the provider said it expects to know (the sandbox: its SANDBOX_DELAY_MS), so it settles then, not at
 * the reconciler's next question; from its request on it is also followed up by the provider questions,
 * after PROVIDER_RECONCILE_AFTER_MS and then doubling waits, which catch an answer that check missed.
 */
@Injectable()
export class Payouts implements PaymentWork {
  readonly kinds = ['payout'] as const;
  readonly retriedOnError = true;

  constructor(
    @Inject(ProcessPayout) private readonly payouts: ProcessPayout,
    @Inject(PAYMENT_WORK) private readonly scheduler: Scheduler<PaymentJob>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  jobsFor(event: RecordedEvent): PaymentJob[] {
    if (event.type !== 'PayoutRequested') return [];
    const { merchantId, payoutId } = event.data as { merchantId: string; payoutId: string };
    return [{ kind: 'payout', id: merchantId, reference: payoutId, step: 'p0', runAt: this.clock.now().getTime() }];
  }

  async run(job: PaymentJob): Promise<void> {
    if (!referenced(job)) return;
    const progress = await this.payouts.process(job.id, job.reference);
    // Only the sending (`p…`) asks again at the expected instant: a check (`c…`) that still finds it under way leaves it to the provider questions.
    if (progress.state === 'pending' && progress.expectedAt && job.step.startsWith('p')) {
      await this.scheduler.schedule({ ...job, step: 'c0', runAt: Math.max(Date.parse(progress.expectedAt), this.clock.now().getTime()) });
    }
  }
}
