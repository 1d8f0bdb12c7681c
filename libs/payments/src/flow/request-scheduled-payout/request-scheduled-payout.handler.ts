import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { scheduledPayoutId } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { Clocks, onClock } from '@app/infrastructure';
import { PayoutBooksDeps } from '../../payouts/payout-books-deps';
import { requestPayout } from '../../payouts/payout-requests';
import { RequestScheduledPayoutCommand } from './request-scheduled-payout.command';

const SYSTEM: EventMetadata = { actor: { type: 'system', id: 'payout-schedule' } };

/**
 * The payout's id derives from the merchant and the period: a job run twice, after a restart or from a
 * Redis that lost its queue, asks for the payout the period already has (its stream exists), and nothing is appended.
 */
@CommandHandler(RequestScheduledPayoutCommand)
export class RequestScheduledPayoutHandler implements ICommandHandler<RequestScheduledPayoutCommand> {
  constructor(
    @Inject(PayoutBooksDeps) private readonly deps: PayoutBooksDeps,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ merchantId, period, clock: given }: RequestScheduledPayoutCommand): Promise<void> {
    const clock = given ?? (await this.clocks.ofParty(merchantId));
    // An account on a test clock is paid its periods by the clock's advances, never by a real-time timer.
    if (clock.testClockId && !given) return;
    const at = clock.clock.now().toISOString();
    await requestPayout(this.deps, { merchantId, payoutId: scheduledPayoutId(merchantId, period), trigger: 'schedule', period, at }, onClock(SYSTEM, clock));
  }
}
