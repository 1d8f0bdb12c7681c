import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Account, accountDecider, streams } from '@app/domain';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { RequestAccountInformationCommand } from '@app/contract';

@CommandHandler(RequestAccountInformationCommand)
export class RequestAccountInformationHandler implements ICommandHandler<RequestAccountInformationCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ accountId, requirements, reason, decidedBy, metadata }: RequestAccountInformationCommand): Promise<Account> {
    // Decided on the account's own clock: a requirement is due after its test clock's now, as its restriction reads it.
    const clock = await this.clocks.ofStream(streams.account(accountId));
    const at = clock.clock.now().toISOString();
    const command = { type: 'RequestAccountInformation', data: { accountId, decidedBy, requirements, ...(reason ? { reason } : {}), at } } as const;
    const { state } = await this.runner.run(streams.account(accountId), accountDecider, command, onClock(metadata, clock));
    return state.account!;
  }
}
