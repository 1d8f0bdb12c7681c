import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDecider, streams } from '@app/domain';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { ReleaseDueCommand } from './release-due.command';

/** The decider decides whether the instant has come (a moved or cleared release, or a job run early, releases nothing). */
@CommandHandler(ReleaseDueCommand)
export class ReleaseDueHandler implements ICommandHandler<ReleaseDueCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ escrowId, clock: given }: ReleaseDueCommand): Promise<number> {
    const clock = given ?? (await this.clocks.ofStream(streams.escrow(escrowId)));
    const { events } = await this.runner.run(
      streams.escrow(escrowId),
      escrowDecider,
      { type: 'ReleaseDue', data: { escrowId, at: clock.clock.now().toISOString() } },
      onClock({ actor: { type: 'system', id: 'scheduler' } }, clock),
    );
    return events.length;
  }
}
