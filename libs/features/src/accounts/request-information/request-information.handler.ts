import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Account, accountDecider, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { RequestAccountInformationCommand } from '@app/contract';

@CommandHandler(RequestAccountInformationCommand)
export class RequestAccountInformationHandler implements ICommandHandler<RequestAccountInformationCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, requirements, reason, decidedBy, metadata }: RequestAccountInformationCommand): Promise<Account> {
    const at = this.clock.now().toISOString();
    const command = { type: 'RequestAccountInformation', data: { accountId, decidedBy, requirements, ...(reason ? { reason } : {}), at } } as const;
    const { state } = await this.runner.run(streams.account(accountId), accountDecider, command, metadata);
    return state.account!;
  }
}
