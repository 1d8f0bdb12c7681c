import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDeciderFor, escrowOutline, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import type { EscrowChange } from '../escrow-command';
import { CancelEscrowCommand } from './cancel-escrow.command';

/** Cancels an escrow; what is still held is refunded through the provider by the scheduled refund work. */
@CommandHandler(CancelEscrowCommand)
export class CancelEscrowHandler implements ICommandHandler<CancelEscrowCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, merchant, escrowId, reason, metadata }: CancelEscrowCommand): Promise<EscrowChange> {
    const { state, at } = await this.runner.run(
      streams.escrow(escrowId),
      escrowDeciderFor(principal, merchant.idSalt),
      { type: 'CancelEscrow', data: { escrowId, merchantId: merchant.merchantId, reason, at: this.clock.now().toISOString() } },
      metadata,
    );
    return { escrow: escrowOutline(state)!, at };
  }
}
