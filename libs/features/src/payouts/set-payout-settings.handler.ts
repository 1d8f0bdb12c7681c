import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { type PayoutSettingsCommand, payoutSettingsDecider, previousAttributes, redirectedParty, settingsInForceOf, settingsOrDefault, streams } from '@app/domain';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { payoutSettingsInForce } from '@app/payments';
import { refuseNewCallbackUrl } from '@app/http';
import { type PayoutSettingsOutcome, SetPayoutSettingsCommand } from '@app/contract';

/**
 * From the API and the dashboard alike: a change is a new version of the settings, the same settings
 * again nothing. The first change of settings kept in the payout account's stream carries them over.
 */
@CommandHandler(SetPayoutSettingsCommand)
export class SetPayoutSettingsHandler implements ICommandHandler<SetPayoutSettingsCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ principal, update, metadata }: SetPayoutSettingsCommand): Promise<PayoutSettingsOutcome> {
    const { id: merchantId } = redirectedParty(principal);
    const before = await payoutSettingsInForce(this.runner, merchantId);
    refuseNewCallbackUrl('change' in update ? update.change.callbackUrl : update.settings.callbackUrl, settingsOrDefault(before).callbackUrl, this.config);
    // An account on a test clock decides on its clock's time (docs/concepts/time.md).
    const clock = await this.clocks.ofParty(merchantId);
    const at = clock.clock.now().toISOString();
    const command: PayoutSettingsCommand =
      'change' in update
        ? { type: 'ChangePayoutSettings', data: { merchantId, change: update.change, at } }
        : { type: 'SetPayoutSettings', data: { merchantId, settings: update.settings, at } };
    const { state, events } = await this.runner.run(streams.payoutSettings(merchantId), payoutSettingsDecider, command, onClock(metadata, clock));
    const last = events.at(-1);
    const changed = last?.type === 'PayoutSettingsChanged' ? last.data : undefined;
    return {
      inForce: settingsInForceOf(state),
      previousAttributes: changed ? previousAttributes({ ...changed.settings, ...changed.previous }, changed.settings) : {},
    };
  }
}
