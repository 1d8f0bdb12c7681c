import { isPayoutEntry } from '@app/audit';
/**
 * The Addis Ababa day (`available_on`) a posting `p` of entry `e` to a merchant's payable becomes
 * available on, as creditAvailableOn (libs/domain/src/payout/payout-availability.ts) computes it: its own
 * day plus the holding period of the merchant (`merchant`, an SQL expression) in force at it, the last
 * settings change before it in the log (payout_delays, keyed by position, so a rebuild finds the same);
 * and, from the same change, its rolling reserve: the percentage it keeps (`${p}_held.reserve_percent`)
 * until `reserve_on`, its own day plus the reserve's days.
 * A payout's own movements (one moving money out, a failed one's return) are no earnings: never held.
 * A LATERAL join: the availability reader, a payout's decision and its report all read the same day;
 * credit-availability.properties.spec.ts holds it equal to the TypeScript rule on random histories.
 */
export const creditAvailableOn = (p: string, e: string, merchant: string) => `
  CROSS JOIN LATERAL (
    SELECT COALESCE(d.delay_days, 0) AS delay_days, COALESCE(d.reserve_percent, 0) AS reserve_percent, COALESCE(d.reserve_days, 0) AS reserve_days
    FROM (SELECT 1) AS one LEFT JOIN LATERAL (
      SELECT delay_days, reserve_percent, reserve_days FROM payout_delays
      WHERE NOT ${isPayoutEntry(`${e}.event_type`)} AND merchant_id = ${merchant} AND (commit_position, prepare_position) < (${p}.commit_position, ${p}.prepare_position)
      ORDER BY commit_position DESC, prepare_position DESC LIMIT 1
    ) d ON true
  ) ${p}_held
  CROSS JOIN LATERAL (
    SELECT ((${p}.recorded_at AT TIME ZONE 'UTC') + interval '3 hours')::date + ${p}_held.delay_days AS available_on,
           ((${p}.recorded_at AT TIME ZONE 'UTC') + interval '3 hours')::date + ${p}_held.reserve_days AS reserve_on
  ) ${p}_on`;

/** The Addis Ababa day of an instant (an SQL timestamptz expression): a credit whose `available_on` is after it is held then. */
export const addisDay = (instant: string) => `((${instant}::timestamptz AT TIME ZONE 'UTC') + interval '3 hours')::date`;

/**
 * What of a credit posting `p` (joined with creditAvailableOn) is still kept from payout at `at`, as
 * creditKeptAt (payout-availability.ts) says: `${p}_kept.reserved`, the reserve's share rounded down to
 * the santim until its day; `${p}_kept.held`, the rest until the holding period's day (all of it once
 * the reserve is over). Zero for a debit. `as` names the join, for a query that asks at two instants.
 */
export const creditKeptAt = (p: string, at: string, as = `${p}_kept`) => `
  CROSS JOIN LATERAL (
    SELECT CASE WHEN ${p}.credit > ${p}.debit AND ${p}_on.reserve_on > ${addisDay(at)} THEN floor((${p}.credit - ${p}.debit) * ${p}_held.reserve_percent / 100) ELSE 0 END AS reserved
  ) ${as}_reserve
  CROSS JOIN LATERAL (
    SELECT ${as}_reserve.reserved,
           CASE WHEN ${p}.credit > ${p}.debit AND ${p}_on.available_on > ${addisDay(at)} THEN ${p}.credit - ${p}.debit - ${as}_reserve.reserved ELSE 0 END AS held
  ) ${as}`;

/** A merchant (an SQL expression) that ever set a holding period or a reserve: one that never did is kept nothing, read at one probe. */
export const everKeeps = (merchant: string) => `EXISTS (SELECT 1 FROM payout_delays WHERE merchant_id = ${merchant} AND (delay_days > 0 OR reserve_percent > 0))`;

/**
 * Whether a posting `p` (joined with creditAvailableOn) is a credit to `account` that the holding period
 * or the reserve still keeps (some of) at `at` (SQL expressions): one recorded in the `windowDays` before
 * it (a credit is kept at most MAX_CREDIT_KEPT_DAYS, so the (account, recorded_at, …) index bounds the
 * read by those rules, not the merchant's history) whose holding day or reserve day is after `at`'s; a
 * merchant that never set either stops at the EXISTS, reading nothing. What it keeps: creditKeptAt.
 */
export const heldAt = (p: string, merchant: string, account: string, at: string, windowDays: string) => `
  ${p}.account = ${account} AND ${p}.credit > ${p}.debit AND ${p}.recorded_at > ${at}::timestamptz - make_interval(days => ${windowDays})
    AND (${p}_on.available_on > ${addisDay(at)} OR (${p}_held.reserve_percent > 0 AND ${p}_on.reserve_on > ${addisDay(at)}))
    AND ${everKeeps(merchant)}`;
