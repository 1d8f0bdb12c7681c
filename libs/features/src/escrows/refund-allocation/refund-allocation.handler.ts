import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDeciderFor, escrowOutline, streams } from '@app/domain';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { PaymentProviders } from '@app/payments';
import { type EscrowChange, RefundAllocationCommand } from '@app/contract';

/** A refund to the customer: a live merchant's on a deployment with no live provider is refused before anything is written (LIVE_MODE_NOT_CONFIGURED). */
@CommandHandler(RefundAllocationCommand)
export class RefundAllocationHandler implements ICommandHandler<RefundAllocationCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(Clocks) private readonly clocks: Clocks,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
  ) {}

  async execute({ principal, merchant, escrowId, refunds, reason, metadata }: RefundAllocationCommand): Promise<EscrowChange> {
    await this.providers.assertTenantCanMove(merchant.merchantId);
    // The object's own clock: a test clock's time for one attached to it (docs/concepts/time.md).
    const clock = await this.clocks.ofStream(streams.escrow(escrowId));
    const { state, at } = await this.runner.run(
      streams.escrow(escrowId),
      escrowDeciderFor(principal, merchant.idSalt),
      { type: 'RefundFunds', data: { escrowId, merchantId: merchant.merchantId, refunds, note: reason, at: clock.clock.now().toISOString() } },
      onClock(metadata, clock),
    );
    return { escrow: escrowOutline(state)!, at };
  }
}
