import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, streams } from '@app/domain';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { RestrictPastDueAccountCommand } from './restrict-past-due-account.command';

/** The decider decides whether a requirement is past due on the account's clock (a job run early, or a document already in, restricts nothing). */
@CommandHandler(RestrictPastDueAccountCommand)
export class RestrictPastDueAccountHandler implements ICommandHandler<RestrictPastDueAccountCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ accountId, clock: given }: RestrictPastDueAccountCommand): Promise<boolean> {
    const clock = given ?? (await this.clocks.ofStream(streams.account(accountId)));
    const { events } = await this.runner.run(
      streams.account(accountId),
      accountDecider,
      { type: 'RestrictPastDueAccount', data: { accountId, at: clock.clock.now().toISOString() } },
      onClock({ actor: { type: 'system', id: 'scheduler' } }, clock),
    );
    return events.length > 0;
  }
}
