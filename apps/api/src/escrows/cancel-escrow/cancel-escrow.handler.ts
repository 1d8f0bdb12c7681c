import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDecider, type EscrowState, streams } from '@app/domain';
import { CommandRunner } from '../../infrastructure/command-runner';
import { ownedBy } from '../owned-escrow';
import { CancelEscrowCommand } from './cancel-escrow.command';

/** Cancels an escrow; what is still held is refunded through the provider by the scheduled refund work. */
@CommandHandler(CancelEscrowCommand)
export class CancelEscrowHandler implements ICommandHandler<CancelEscrowCommand> {
  constructor(@Inject(CommandRunner) private readonly runner: CommandRunner) {}

  async execute({ merchant, escrowId, reason, metadata }: CancelEscrowCommand): Promise<EscrowState> {
    const { state } = await this.runner.run(
      streams.escrow(escrowId),
      escrowDecider,
      ownedBy(merchant.merchantId, escrowId, () => ({ type: 'CancelEscrow', data: { reason, at: new Date().toISOString() } })),
      metadata,
    );
    return state;
  }
}
