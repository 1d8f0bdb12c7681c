import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDeciderFor, escrowOutline, streams } from '@app/domain';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { type EscrowChange, ReleaseAllocationCommand } from '@app/contract';

@CommandHandler(ReleaseAllocationCommand)
export class ReleaseAllocationHandler implements ICommandHandler<ReleaseAllocationCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ principal, merchant, escrowId, releases, metadata }: ReleaseAllocationCommand): Promise<EscrowChange> {
    // The object's own clock: a test clock's time for one attached to it (docs/concepts/time.md).
    const clock = await this.clocks.ofStream(streams.escrow(escrowId));
    const { state, at } = await this.runner.run(
      streams.escrow(escrowId),
      escrowDeciderFor(principal, merchant.idSalt),
      { type: 'ReleaseFunds', data: { escrowId, merchantId: merchant.merchantId, releases, at: clock.clock.now().toISOString() } },
      onClock(metadata, clock),
    );
    return { escrow: escrowOutline(state)!, at };
  }
}
