import type { SqlExecutor } from '@app/database';
import { payoutSettingsDecider, type SettingsInForce, settingsInForceOf, streams } from '@app/domain';
import type { CommandRunner } from '@app/infrastructure';
import { payoutScheduleStanding, type PayoutScheduleStanding } from '@app/read-models';

/**
 * The payout settings in force: their own stream's. A merchant whose settings were kept in its payout
 * account's stream before they had one of their own has them as the read model folded them there (never
 * by folding the account's history), until its next change carries them over; one that never set any
 * has the defaults (undefined); a pause (PayoutsPaused) stands over either. A caller that
 * reads the schedule's standing anyway passes its read, which is then not made twice.
 */
export async function payoutSettingsInForce(
  runner: CommandRunner,
  db: SqlExecutor,
  merchantId: string,
  standing?: Promise<PayoutScheduleStanding>,
): Promise<SettingsInForce | undefined> {
  const { state } = await runner.read(streams.payoutSettings(merchantId), payoutSettingsDecider);
  if (state.settings) return settingsInForceOf(state);
  return settingsInForceOf(state, (await (standing ?? payoutScheduleStanding(db, merchantId))).accountSettings);
}
