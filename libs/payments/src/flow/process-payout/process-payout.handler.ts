import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type PayoutCommand, payoutDecider, payoutSettingsDecider, settingsOrDefault, streams } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import { PayoutDestinations } from '@app/credentials';
import { PAYMENT_PROVIDER, type PaymentProvider, ProviderRejected, type TransferStatus } from '../../payment-provider.port';
import { type PayoutProgress, ProcessPayoutCommand } from './process-payout.command';

const SYSTEM: EventMetadata = { actor: { type: 'system', id: 'payouts' } };

/**
 * The transfer's reference is the payout's id: a process killed after sending and before recording
 * finds the transfer when it asks, and never sends a second one.
 */
@CommandHandler(ProcessPayoutCommand)
export class ProcessPayoutHandler implements ICommandHandler<ProcessPayoutCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(PayoutDestinations) private readonly accounts: PayoutDestinations,
  ) {}

  async execute({ merchantId, payoutId }: ProcessPayoutCommand): Promise<PayoutProgress> {
    const stream = streams.payouts(merchantId);
    const [{ state }, own] = await Promise.all([this.runner.read(stream, payoutDecider), this.runner.read(streams.payoutSettings(merchantId), payoutSettingsDecider)]);
    // Its callback goes where the settings say when its outcome is known (before they had their own stream, the account kept them).
    const { callbackUrl } = settingsOrDefault(own.state.settings ?? state.settings);
    const payout = state.payouts.get(payoutId);
    if (!payout || payout.status === 'PAID' || payout.status === 'FAILED') return 'settled';
    let status: TransferStatus = await this.provider.transferStatus(payoutId);
    if (status.state === 'unknown') {
      // The destination the payout was requested for, even if the merchant has changed it since.
      const destination = state.destinations[payout.destinationVersion];
      const accountNumber = await this.accounts.accountNumber(merchantId, destination.accountRef);
      if (accountNumber === undefined) return this.record(stream, { type: 'RecordPayoutFailed', data: { payoutId, reason: 'DESTINATION_UNAVAILABLE', at: new Date().toISOString(), callbackUrl } });
      try {
        const { kind, institution, holderName } = destination;
        status = await this.provider.transfer({ reference: payoutId, amount: payout.amount, destination: { kind, institution, holderName, accountNumber } });
      } catch (error) {
        if (!(error instanceof ProviderRejected)) throw error;
        return this.record(stream, { type: 'RecordPayoutFailed', data: { payoutId, reason: error.code, at: new Date().toISOString(), callbackUrl } });
      }
    }
    const at = new Date().toISOString();
    if (payout.status === 'REQUESTED') await this.runner.run(stream, payoutDecider, { type: 'RecordPayoutSent', data: { payoutId, providerReference: payoutId, at } }, SYSTEM);
    if (status.state === 'succeeded') return this.record(stream, { type: 'RecordPayoutPaid', data: { payoutId, externalReferenceId: status.externalReferenceId, at: status.at, callbackUrl } });
    if (status.state === 'failed') return this.record(stream, { type: 'RecordPayoutFailed', data: { payoutId, reason: status.reason, at: status.at, callbackUrl } });
    return 'pending';
  }

  private async record(stream: string, command: PayoutCommand): Promise<PayoutProgress> {
    await this.runner.run(stream, payoutDecider, command, SYSTEM);
    return 'settled';
  }
}
