import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type CommissionCommand, commissionDecider, commissionPreviousAttributes } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { PartyRelations } from '@app/onboarding';
import { ChangeCommissionCommand, type ChangedCommission } from './change-commission.command';
import { commissionStream } from './commission-stream';

@CommandHandler(ChangeCommissionCommand)
export class ChangeCommissionHandler implements ICommandHandler<ChangeCommissionCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PartyRelations) private readonly relations: PartyRelations,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, platformId, accountId, rule, metadata }: ChangeCommissionCommand): Promise<ChangedCommission> {
    const stream = await commissionStream(this.relations, principal, platformId, accountId);
    const at = this.clock.now().toISOString();
    const scope = { platformId, ...(accountId === undefined ? {} : { accountId }), at };
    const command: CommissionCommand = rule ? { type: 'SetCommission', data: { ...scope, rule } } : { type: 'RemoveCommission', data: scope };
    const { state, events } = await this.runner.run(stream, commissionDecider, command, metadata);
    const changed = events.at(-1)?.data;
    return { state, previousAttributes: changed ? commissionPreviousAttributes(changed.previous, changed.rule) : {} };
  }
}
