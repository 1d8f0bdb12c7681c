import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { RecordedEvent } from '@app/event-store';
import { streamKey } from '@app/domain';
import type { Scheduler } from '@app/scheduling';
import { CLOCK, type Clock } from '@app/infrastructure';
import { ProcessRefundCommand } from '../flow/process-refund/process-refund.command';
import { backoffMs, nextAttempt } from './job-retries';
import { PAYMENT_WORK, type PaymentJob, referenced } from './payment-job';
import type { PaymentWork } from './payment-work';

const REFUND_REQUESTED = new Set(['OrderRefundRequested', 'EscrowRefundRequested']);

/**
 * Each refund asked for is sent to the provider at once; a refusal is tried again on a doubling wait. A
 * refund under way is left to its notification and, if that is lost, to the provider questions: its
 * provider operation opens when it is asked for, so they queue it again until its outcome arrives.
 */
@Injectable()
export class Refunds implements PaymentWork {
  readonly kinds = ['refund'] as const;
  readonly retriedOnError = true;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PAYMENT_WORK) private readonly scheduler: Scheduler<PaymentJob>,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  jobsFor(event: RecordedEvent): PaymentJob[] {
    if (!REFUND_REQUESTED.has(event.type)) return [];
    const { refundId } = event.data as { refundId: string };
    return [{ kind: 'refund', id: streamKey(event.streamId), reference: refundId, step: 'r0', runAt: this.clock.now().getTime() }];
  }

  async run(job: PaymentJob): Promise<void> {
    if (!referenced(job)) return;
    const progress = await this.commands.execute(new ProcessRefundCommand(job.id, job.reference));
    // Only a sending (`r…`) is tried again: a provider question (`q…`) is asked anew by the next pass.
    if (progress === 'refused' && job.step.startsWith('r')) await this.scheduler.schedule(nextAttempt(job, this.clock.now().getTime() + backoffMs(job, this.config.refundRetryMs)));
  }
}
