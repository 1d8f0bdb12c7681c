import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDeciderFor, escrowOutline, streams } from '@app/domain';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { PaymentProviders } from '@app/payments';
import { type EscrowChange, CancelEscrowCommand } from '@app/contract';
import { refundsWhereMoneyMoves } from '../refunds-where-money-moves';

/**
 * Cancels an escrow; what is still held is refunded through the provider by the scheduled refund work,
 * so a paid live escrow's cancel on a deployment with no live provider is refused (refundsWhereMoneyMoves).
 */
@CommandHandler(CancelEscrowCommand)
export class CancelEscrowHandler implements ICommandHandler<CancelEscrowCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(Clocks) private readonly clocks: Clocks,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
  ) {}

  async execute({ principal, merchant, escrowId, reason, metadata }: CancelEscrowCommand): Promise<EscrowChange> {
    // The object's own clock: a test clock's time for one attached to it (docs/concepts/time.md).
    const clock = await this.clocks.ofStream(streams.escrow(escrowId));
    const { state, at } = await this.runner.run(
      streams.escrow(escrowId),
      await refundsWhereMoneyMoves(this.providers, merchant.merchantId, escrowDeciderFor(principal, merchant.idSalt)),
      { type: 'CancelEscrow', data: { escrowId, merchantId: merchant.merchantId, reason, at: clock.clock.now().toISOString() } },
      onClock(metadata, clock),
    );
    return { escrow: escrowOutline(state)!, at };
  }
}
