import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDecider, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { ReleaseDueCommand } from './release-due.command';

/** The decider decides whether the instant has come (a moved or cleared release, or a job run early, releases nothing). */
@CommandHandler(ReleaseDueCommand)
export class ReleaseDueHandler implements ICommandHandler<ReleaseDueCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ escrowId }: ReleaseDueCommand): Promise<number> {
    const { events } = await this.runner.run(
      streams.escrow(escrowId),
      escrowDecider,
      { type: 'ReleaseDue', data: { escrowId, at: this.clock.now().toISOString() } },
      { actor: { type: 'system', id: 'scheduler' } },
    );
    return events.length;
  }
}
