import type { SqlExecutor } from '@app/database';
import type { SettingsInForce } from '@app/domain';

/** What the read models know of a merchant's schedule beside its settings: what paused it, the last period it paid, where its settings are kept. */
export interface PayoutScheduleStanding {
  /** The failed payout to the current destination that paused scheduled payouts. */
  pausedByPayoutId: string | null;
  lastPeriod: string | null;
  settingsInAccount: boolean;
  /** The settings the payout account stream kept, as they stand there (none when it kept none). */
  accountSettings?: SettingsInForce;
}

export async function payoutScheduleStanding(db: SqlExecutor, merchantId: string): Promise<PayoutScheduleStanding> {
  const [row] = await db.query<{ paused_by: string | null; last_period: string | null; settings_in_account: boolean; account_settings: Omit<SettingsInForce, 'scheduleSetAt'> | null; schedule_set_at: Date | null }>(
    `SELECT (SELECT p.payout_id FROM payouts_view p WHERE p.merchant_id = s.merchant_id AND p.status = 'FAILED' AND (p.document->>'destinationVersion')::int = s.destination_version
             ORDER BY p.requested_at DESC LIMIT 1) AS paused_by, s.last_period, s.settings_in_account, s.account_settings, s.schedule_set_at
     FROM payout_schedules s WHERE s.merchant_id = $1`,
    [merchantId],
  );
  const account = row?.settings_in_account && row.account_settings ? { ...row.account_settings, scheduleSetAt: row.schedule_set_at ? new Date(row.schedule_set_at).getTime() : 0 } : undefined;
  return { pausedByPayoutId: row?.paused_by ?? null, lastPeriod: row?.last_period ?? null, settingsInAccount: row?.settings_in_account ?? false, ...(account && { accountSettings: account }) };
}
