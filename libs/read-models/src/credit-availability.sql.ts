import { isPayoutEntry } from '@app/audit';
/**
 * The Addis Ababa day (`available_on`) a posting `p` of entry `e` to a merchant's payable becomes
 * available on, as creditAvailableOn (libs/domain/src/payout/payout-availability.ts) computes it: its own
 * day plus the holding period of the merchant (`merchant`, an SQL expression) in force at it, the last
 * settings change before it in the log (payout_delays, keyed by position, so a rebuild finds the same).
 * A payout's own movements (one moving money out, a failed one's return) are no earnings: never held.
 * A LATERAL join: the availability reader, a payout's decision and its report all read the same day;
 * credit-availability.properties.spec.ts holds it equal to the TypeScript rule on random histories.
 */
export const creditAvailableOn = (p: string, e: string, merchant: string) => `
  CROSS JOIN LATERAL (
    SELECT CASE WHEN ${isPayoutEntry(`${e}.event_type`)} THEN 0 ELSE COALESCE((
      SELECT d.delay_days FROM payout_delays d
      WHERE d.merchant_id = ${merchant} AND (d.commit_position, d.prepare_position) < (${p}.commit_position, ${p}.prepare_position)
      ORDER BY d.commit_position DESC, d.prepare_position DESC LIMIT 1
    ), 0) END AS delay_days
  ) ${p}_held
  CROSS JOIN LATERAL (SELECT ((${p}.recorded_at AT TIME ZONE 'UTC') + interval '3 hours')::date + ${p}_held.delay_days AS available_on) ${p}_on`;

/** The Addis Ababa day of an instant (an SQL timestamptz expression): a credit whose `available_on` is after it is held then. */
export const addisDay = (instant: string) => `((${instant}::timestamptz AT TIME ZONE 'UTC') + interval '3 hours')::date`;

/**
 * Whether a posting `p` (joined with creditAvailableOn) is a credit to `account` that the holding period
 * still keeps at `at` (SQL expressions): one recorded in the `windowDays` before it (a credit is held at
 * most MAX_PAYOUT_DELAY_DAYS, so the (account, recorded_at, …) index bounds the read by the holding
 * period, not the merchant's history) whose day is after `at`'s; a merchant that never set a holding
 * period stops at the EXISTS, reading nothing.
 */
export const heldAt = (p: string, merchant: string, account: string, at: string, windowDays: string) => `
  ${p}.account = ${account} AND ${p}.credit > ${p}.debit AND ${p}.recorded_at > ${at}::timestamptz - make_interval(days => ${windowDays})
    AND ${p}_on.available_on > ${addisDay(at)}
    AND EXISTS (SELECT 1 FROM payout_delays WHERE merchant_id = ${merchant} AND delay_days > 0)`;
