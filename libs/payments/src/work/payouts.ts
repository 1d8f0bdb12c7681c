import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { RecordedEvent } from '@app/event-store';
import { CLOCK, type Clock } from '@app/infrastructure';
import { ProcessPayoutCommand } from '../flow/process-payout/process-payout.command';
import { type PaymentJob, referenced } from './payment-job';
import type { PaymentWork } from './payment-work';

/** Each payout requested is sent at once; one under way (from its request on) is followed up by the provider questions, after PROVIDER_RECONCILE_AFTER_MS and then doubling waits. */
@Injectable()
export class Payouts implements PaymentWork {
  readonly kinds = ['payout'] as const;
  readonly retriedOnError = true;

  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  jobsFor(event: RecordedEvent): PaymentJob[] {
    if (event.type !== 'PayoutRequested') return [];
    const { merchantId, payoutId } = event.data as { merchantId: string; payoutId: string };
    return [{ kind: 'payout', id: merchantId, reference: payoutId, step: 'p0', runAt: this.clock.now().getTime() }];
  }

  async run(job: PaymentJob): Promise<void> {
    if (!referenced(job)) return;
    await this.commands.execute(new ProcessPayoutCommand(job.id, job.reference));
  }
}
