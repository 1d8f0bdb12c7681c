import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { accountDecider, type DestinationInForce, destinationInForce, payoutDestinationDecider, redirectedParty, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { PayoutDestinations } from '@app/credentials';
import { SetPayoutDestinationCommand } from '@app/contract';

/**
 * The number is sealed first, under a reference of its own; the event names the reference. Should the
 * append fail, an unreferenced sealed number is all that is left behind. The destination has a
 * stream of its own.
 * A seller account's change is decided with the account as it stands: replacing a payable destination
 * holds its payouts (account-payability.ts `replacingHolds`).
 */
@CommandHandler(SetPayoutDestinationCommand)
export class SetPayoutDestinationHandler implements ICommandHandler<SetPayoutDestinationCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PayoutDestinations) private readonly accounts: PayoutDestinations,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ principal, destination, metadata }: SetPayoutDestinationCommand): Promise<DestinationInForce | undefined> {
    const { id: merchantId, account } = redirectedParty(principal);
    const [kept, standing] = await Promise.all([
      this.accounts.keep(merchantId, destination.accountNumber),
      account ? this.runner.read(streams.account(merchantId), accountDecider).then(({ state }) => state.account) : undefined,
    ]);
    const { state } = await this.runner.run(
      streams.payoutDestination(merchantId),
      payoutDestinationDecider,
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
          at: this.clock.now().toISOString(),
          ...(standing ? { account: { standing, holdMs: this.config.payoutHoldAfterDestinationChangeMs } } : {}),
        },
      },
      metadata,
    );
    const inForce = destinationInForce(state);
    if (account && inForce) {
      const note = { type: 'NoteAccountPayoutDestination' as const, data: { accountId: merchantId, version: inForce.version, at: this.clock.now().toISOString() } };
      await this.runner.run(streams.account(merchantId), accountDecider, note, metadata);
    }
    return inForce;
  }
}
