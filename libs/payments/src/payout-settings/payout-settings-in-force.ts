import { payoutSettingsDecider, type SettingsInForce, settingsInForceOf, streams } from '@app/domain';
import type { CommandRunner } from '@app/infrastructure';

/**
 * The payout settings in force: their own stream's (the service's start has carried over any an earlier
 * release kept in the payout account's stream: payouts/payout-accounts-at-start.ts); undefined for a
 * merchant that never set any (the defaults); a pause (PayoutsPaused) stands over either.
 */
export async function payoutSettingsInForce(runner: CommandRunner, merchantId: string): Promise<SettingsInForce | undefined> {
  return settingsInForceOf((await runner.read(streams.payoutSettings(merchantId), payoutSettingsDecider)).state);
}
