import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDeciderFor, escrowOutline, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import type { EscrowChange } from '../escrow-command';
import { RefundAllocationCommand } from './refund-allocation.command';

@CommandHandler(RefundAllocationCommand)
export class RefundAllocationHandler implements ICommandHandler<RefundAllocationCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, merchant, escrowId, refunds, reason, metadata }: RefundAllocationCommand): Promise<EscrowChange> {
    const { state, at } = await this.runner.run(
      streams.escrow(escrowId),
      escrowDeciderFor(principal, merchant.idSalt),
      { type: 'RefundFunds', data: { escrowId, merchantId: merchant.merchantId, refunds, note: reason, at: this.clock.now().toISOString() } },
      metadata,
    );
    return { escrow: escrowOutline(state)!, at };
  }
}
