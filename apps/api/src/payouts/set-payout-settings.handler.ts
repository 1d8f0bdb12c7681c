import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { payoutSettingsDecider, type SettingsInForce, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { payoutSettingsInForce } from '@app/payments';
import { SetPayoutSettingsCommand } from './set-payout-settings.command';

/**
 * From the API and the dashboard alike: a change is a new version of the settings, the same settings
 * again nothing. The first change of settings kept in the payout account's stream carries them over.
 */
@CommandHandler(SetPayoutSettingsCommand)
export class SetPayoutSettingsHandler implements ICommandHandler<SetPayoutSettingsCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ merchantId, settings, metadata }: SetPayoutSettingsCommand): Promise<SettingsInForce | undefined> {
    const carried = await payoutSettingsInForce(this.runner, this.db, merchantId);
    const { state } = await this.runner.run(
      streams.payoutSettings(merchantId),
      payoutSettingsDecider,
      { type: 'SetPayoutSettings', data: { merchantId, settings, at: this.clock.now().toISOString(), carried } },
      metadata,
    );
    return state.settings ?? carried;
  }
}
