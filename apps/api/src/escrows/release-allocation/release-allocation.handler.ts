import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDecider, type EscrowState, streams } from '@app/domain';
import { CommandRunner } from '../../infrastructure/command-runner';
import { ownedBy } from '../owned-escrow';
import { ReleaseAllocationCommand } from './release-allocation.command';

@CommandHandler(ReleaseAllocationCommand)
export class ReleaseAllocationHandler implements ICommandHandler<ReleaseAllocationCommand> {
  constructor(@Inject(CommandRunner) private readonly runner: CommandRunner) {}

  async execute({ merchant, escrowId, allocationMerchantId, metadata }: ReleaseAllocationCommand): Promise<EscrowState> {
    const { state } = await this.runner.run(
      streams.escrow(escrowId),
      escrowDecider,
      ownedBy(merchant.merchantId, escrowId, () => ({
        type: 'ReleaseAllocation',
        data: { merchantId: allocationMerchantId, at: new Date().toISOString() },
      })),
      metadata,
    );
    return state;
  }
}
