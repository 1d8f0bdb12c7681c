import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { escrowDecider, streams } from '@app/domain';
import { CommandRunner } from '@app/infrastructure';
import { ReleaseDueCommand } from './release-due.command';

/** The decider decides whether the instant has come (a moved or cleared release, or a job run early, releases nothing). */
@CommandHandler(ReleaseDueCommand)
export class ReleaseDueHandler implements ICommandHandler<ReleaseDueCommand> {
  constructor(@Inject(CommandRunner) private readonly runner: CommandRunner) {}

  async execute({ escrowId }: ReleaseDueCommand): Promise<number> {
    const { events } = await this.runner.run(
      streams.escrow(escrowId),
      escrowDecider,
      { type: 'ReleaseDue', data: { escrowId, at: new Date().toISOString() } },
      { actor: { type: 'system', id: 'scheduler' } },
    );
    return events.length;
  }
}
