import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Account, accountDecider, streams } from '@app/domain';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { ReviewAccountCommand } from '@app/contract';

@CommandHandler(ReviewAccountCommand)
export class ReviewAccountHandler implements ICommandHandler<ReviewAccountCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ accountId, decision, decidedBy, metadata }: ReviewAccountCommand): Promise<Account> {
    // Decided on the account's own clock: a requirement is due after its test clock's now, as its restriction reads it.
    const clock = await this.clocks.ofStream(streams.account(accountId));
    const at = clock.clock.now().toISOString();
    const command = decision.approve
      ? ({ type: 'ApproveAccount', data: { accountId, decidedBy, ...(decision.reason ? { reason: decision.reason } : {}), at } } as const)
      : ({ type: 'RejectAccount', data: { accountId, decidedBy, reason: decision.reason, at } } as const);
    const { state } = await this.runner.run(streams.account(accountId), accountDecider, command, onClock(metadata, clock));
    return state.account!;
  }
}
