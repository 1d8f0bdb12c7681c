import { Inject, Injectable } from '@nestjs/common';
import { destinationFailure, type PayoutCommand, type PayoutDestination, type PayoutStatus, type Santim, settingsOrDefault, singlePayoutDecider, streams } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CLOCK, type Clock, CommandRunner, type KnownStream } from '@app/infrastructure';
import { PayoutDestinations } from '@app/credentials';
import { ProviderRejected, type TransferStatus } from '../../payment-provider.port';
import { PaymentProviders } from '../../payment-providers';
import { payoutSettingsInForce } from '../../payout-settings/payout-settings-in-force';
import { payoutDestination } from '../../payouts/payout-requests';

/** `settled`: paid or failed, nothing left to do; `pending`: the provider has it under way, and may say when it expects to know its outcome. */
export type PayoutProgress = { state: 'settled' } | { state: 'pending'; expectedAt?: string };

const SYSTEM: EventMetadata = { actor: { type: 'system', id: 'payouts' } };
const SETTLED: PayoutProgress = { state: 'settled' };

/** A payout as the provider's outcome is decided on, read from its own stream. */
interface PayoutToProcess {
  amount: Santim;
  status: PayoutStatus;
  destination?: PayoutDestination;
  /** Records an outcome in the payout's stream. */
  record(command: PayoutCommand): Promise<void>;
  /** Records PayoutSent; false when the stream says the payout was cancelled first (it is then never sent). */
  markSent(at: string): Promise<boolean>;
}

/**
 * Moves a payout on with the provider: asks what became of its transfer, sends it when the provider
 * does not have it, and records the outcome. The payout work (work/payouts.ts) calls it when the payout
 * is requested and again while it is open: the work of this library, so no command bus between them.
 * The transfer's reference is the payout's id: a process killed after sending and before recording
 * finds the transfer when it asks, and never sends a second one. A payout is its own stream
 * (`payout-{payoutId}`): the service's start has carried over any an earlier release kept elsewhere
 * (payouts/payout-accounts-at-start.ts).
 */
@Injectable()
export class ProcessPayout {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
    @Inject(PayoutDestinations) private readonly accounts: PayoutDestinations,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async process(merchantId: string, payoutId: string): Promise<PayoutProgress> {
    const [payout, inForce] = await Promise.all([this.ownPayout(merchantId, payoutId), payoutSettingsInForce(this.runner, merchantId)]);
    if (!payout || payout.status === 'PAID' || payout.status === 'FAILED' || payout.status === 'CANCELED') return SETTLED;
    // Its callback goes where the settings say when its outcome is known.
    const { callbackUrl } = settingsOrDefault(inForce);
    // The payout's tenant's mode's provider: a test balance is never paid out by a live provider.
    const provider = await this.providers.forTenant(merchantId);
    let status: TransferStatus = await provider.transferStatus(payoutId);
    let recordedSent = payout.status !== 'REQUESTED';
    if (status.state === 'unknown') {
      // The destination the payout was requested for, even if the merchant has changed it since.
      const destination = payout.destination;
      const accountNumber = destination && (await this.accounts.accountNumber(merchantId, destination.accountRef));
      if (!destination || accountNumber === undefined) return this.settle(payout, { type: 'RecordPayoutFailed', data: { payoutId, reason: 'DESTINATION_UNAVAILABLE', at: this.clock.now().toISOString(), callbackUrl } });
      // Sent in its stream before the provider has it: a cancellation decided there first leaves it CANCELED, never sent,
      // and none decided after it can succeed (single-payout.decider.ts).
      if (!recordedSent && !(await payout.markSent(this.clock.now().toISOString()))) return SETTLED;
      recordedSent = true;
      try {
        const { kind, institution, holderName } = destination;
        status = await provider.transfer({ reference: payoutId, amount: payout.amount, destination: { kind, institution, holderName, accountNumber } });
      } catch (error) {
        if (!(error instanceof ProviderRejected)) throw error;
        return this.settle(payout, { type: 'RecordPayoutFailed', data: { payoutId, reason: error.code, at: this.clock.now().toISOString(), callbackUrl } });
      }
    }
    // The provider had it already (sent by a process that stopped before recording so, before sends were recorded first).
    if (!recordedSent) await payout.markSent(this.clock.now().toISOString());
    if (status.state === 'succeeded') return this.settle(payout, { type: 'RecordPayoutPaid', data: { payoutId, externalReferenceId: status.externalReferenceId, at: status.at, callbackUrl } });
    if (status.state === 'failed') return this.settle(payout, { type: 'RecordPayoutFailed', data: { payoutId, reason: status.reason, at: status.at, callbackUrl } });
    return { state: 'pending', ...(status.state === 'pending' && status.expectedAt ? { expectedAt: status.expectedAt } : {}) };
  }

  private async settle(payout: PayoutToProcess, command: PayoutCommand): Promise<PayoutProgress> {
    await payout.record(command);
    return SETTLED;
  }

  /** A payout of its own stream: its failure to the destination in force is written with the destination's PayoutDestinationFailed, in one append. */
  private async ownPayout(merchantId: string, payoutId: string): Promise<PayoutToProcess | undefined> {
    const stream = streams.payout(payoutId);
    const { payout } = (await this.runner.read(stream, singlePayoutDecider)).state;
    if (!payout) return undefined;
    const record = async (command: PayoutCommand) => {
      if (command.type !== 'RecordPayoutFailed') {
        await this.runner.run(stream, singlePayoutDecider, command, SYSTEM);
        return;
      }
      await this.runner.decideAcross(async () => {
        const [own, destination] = await Promise.all([this.runner.read(stream, singlePayoutDecider), payoutDestination(this.runner, merchantId)]);
        const failed = singlePayoutDecider.decide(command, own.state);
        const current = own.state.payout!;
        const paused = failed.length > 0 ? destinationFailure(destination.stream.state, current, command.data.at) : undefined;
        const expected = (known: KnownStream<unknown>) => (known.head ? known.head.revision : ('no_stream' as const));
        return {
          appends: [
            { streamId: stream, events: failed, expected: expected(own) },
            ...(paused ? [{ streamId: streams.payoutDestination(merchantId), events: [paused], expected: expected(destination.stream) }] : []),
          ],
          result: undefined,
        };
      }, SYSTEM);
    };
    const markSent = async (at: string) => {
      const { state } = await this.runner.run(stream, singlePayoutDecider, { type: 'RecordPayoutSent', data: { payoutId, providerReference: payoutId, at } }, SYSTEM);
      return state.payout?.status !== 'CANCELED';
    };
    return { amount: payout.amount, status: payout.status, destination: payout.destination, record, markSent };
  }
}
