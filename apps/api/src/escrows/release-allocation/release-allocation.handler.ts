import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDeciderFor, escrowOutline, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import type { EscrowChange } from '../escrow-command';
import { ReleaseAllocationCommand } from './release-allocation.command';

@CommandHandler(ReleaseAllocationCommand)
export class ReleaseAllocationHandler implements ICommandHandler<ReleaseAllocationCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, merchant, escrowId, releases, metadata }: ReleaseAllocationCommand): Promise<EscrowChange> {
    const { state, at } = await this.runner.run(
      streams.escrow(escrowId),
      escrowDeciderFor(principal, merchant.idSalt),
      { type: 'ReleaseFunds', data: { escrowId, merchantId: merchant.merchantId, releases, at: this.clock.now().toISOString() } },
      metadata,
    );
    return { escrow: escrowOutline(state)!, at };
  }
}
