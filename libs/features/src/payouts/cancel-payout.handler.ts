import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type PayoutEvent, PayoutNotFound, redirectedParty, settingsOrDefault, singlePayoutDecider, streams } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { payoutSettingsInForce } from '@app/payments';
import { type PayoutView, requestedPayoutView } from '@app/read-models';
import { CancelPayoutCommand } from '@app/contract';

/**
 * Decided on the payout's own stream at the revision it read: the worker records PayoutSent there
 * before it hands the transfer to the provider (ProcessPayout, libs/payments/src/flow/process-payout/process-payout.ts), so either the cancellation is
 * appended first and the payout is never sent, or the send is and the cancellation is refused
 * (PAYOUT_NOT_CANCELABLE). PayoutCanceled returns the money to the payable and fees (ledger-rules.ts).
 * Another merchant's payout is not found.
 */
@CommandHandler(CancelPayoutCommand)
export class CancelPayoutHandler implements ICommandHandler<CancelPayoutCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, payoutId, metadata }: CancelPayoutCommand): Promise<PayoutView> {
    const { id: merchantId } = redirectedParty(principal);
    const stream = streams.payout(payoutId);
    const [known, inForce] = await Promise.all([this.runner.read(stream, singlePayoutDecider), payoutSettingsInForce(this.runner, merchantId)]);
    if (known.state.payout?.merchantId !== merchantId) throw new PayoutNotFound(payoutId);
    const at = this.clock.now().toISOString();
    // Its callback goes where the settings say now, as a payout's outcome does when it is known.
    const command = { type: 'CancelPayout' as const, data: { payoutId, at, callbackUrl: settingsOrDefault(inForce).callbackUrl } };
    await this.runner.run(stream, singlePayoutDecider, command, metadata, known);
    // The payout as its stream now says (the payouts view may not have it yet): its request, and its cancellation, this one's or an earlier one's.
    const history = (await this.store.readStream(stream)) as unknown as PayoutEvent[];
    const requested = history.find((e) => e.type === 'PayoutRequested')!;
    const canceled = history.find((e) => e.type === 'PayoutCanceled')!;
    return { ...requestedPayoutView(requested.data), status: 'CANCELED', canceledAt: canceled.data.canceledAt };
  }
}
