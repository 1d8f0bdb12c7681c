import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type PayoutAccountState, payoutDecider, streams } from '@app/domain';
import { CommandRunner } from '@app/infrastructure';
import { PayoutDestinations } from '@app/credentials';
import { SetPayoutDestinationCommand } from './set-payout-destination.command';

/**
 * The number is sealed first, under a reference of its own; the event names the reference. Should the
 * append fail, an unreferenced sealed number is all that is left behind.
 */
@CommandHandler(SetPayoutDestinationCommand)
export class SetPayoutDestinationHandler implements ICommandHandler<SetPayoutDestinationCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PayoutDestinations) private readonly accounts: PayoutDestinations,
  ) {}

  async execute({ merchantId, destination, metadata }: SetPayoutDestinationCommand): Promise<PayoutAccountState> {
    const kept = await this.accounts.keep(merchantId, destination.accountNumber);
    const { state } = await this.runner.run(
      streams.payouts(merchantId),
      payoutDecider,
      {
        type: 'SetPayoutDestination',
        data: {
          merchantId,
          destination: {
            kind: destination.kind,
            institution: destination.institution,
            holderName: destination.holderName.trim(),
            accountMask: kept.mask,
            accountRef: kept.accountRef,
            accountFingerprint: kept.fingerprint,
          },
          at: new Date().toISOString(),
        },
      },
      metadata,
    );
    return state;
  }
}
