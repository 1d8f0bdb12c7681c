import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type PayoutAccountState, payoutDecider, streams } from '@app/domain';
import { CommandRunner } from '@app/infrastructure';
import { SetPayoutSettingsCommand } from './set-payout-settings.command';

/** From the API and the dashboard alike: a change is a new version of the settings, the same settings again nothing. */
@CommandHandler(SetPayoutSettingsCommand)
export class SetPayoutSettingsHandler implements ICommandHandler<SetPayoutSettingsCommand> {
  constructor(@Inject(CommandRunner) private readonly runner: CommandRunner) {}

  async execute({ merchantId, settings, metadata }: SetPayoutSettingsCommand): Promise<PayoutAccountState> {
    const { state } = await this.runner.run(streams.payouts(merchantId), payoutDecider, { type: 'SetPayoutSettings', data: { merchantId, settings, at: new Date().toISOString() } }, metadata);
    return state;
  }
}
