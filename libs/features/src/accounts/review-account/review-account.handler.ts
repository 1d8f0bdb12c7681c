import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Account, accountDecider, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { ReviewAccountCommand } from '@app/contract';

@CommandHandler(ReviewAccountCommand)
export class ReviewAccountHandler implements ICommandHandler<ReviewAccountCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, decision, decidedBy, metadata }: ReviewAccountCommand): Promise<Account> {
    const at = this.clock.now().toISOString();
    const command = decision.approve
      ? ({ type: 'ApproveAccount', data: { accountId, decidedBy, ...(decision.reason ? { reason: decision.reason } : {}), at } } as const)
      : ({ type: 'RejectAccount', data: { accountId, decidedBy, reason: decision.reason, at } } as const);
    const { state } = await this.runner.run(streams.account(accountId), accountDecider, command, metadata);
    return state.account!;
  }
}
