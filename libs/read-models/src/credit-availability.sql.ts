/**
 * The Addis Ababa day (`available_on`) a posting `p` of entry `e` to a merchant's payable becomes
 * available on, as creditAvailableOn (libs/domain/src/payout/payout-availability.ts) computes it: its own
 * day plus the holding period of the merchant (`merchant`, an SQL expression) in force at it, the last
 * settings change before it in the log (payout_delays, keyed by position, so a rebuild finds the same).
 * A payout's own movements (one moving money out, a failed one's return) are no earnings: never held.
 * A LATERAL join: the availability reader, a payout's decision and its report all read the same day.
 */
export const creditAvailableOn = (p: string, e: string, merchant: string) => `
  CROSS JOIN LATERAL (
    SELECT CASE WHEN ${e}.event_type LIKE 'Payout%' THEN 0 ELSE COALESCE((
      SELECT d.delay_days FROM payout_delays d
      WHERE d.merchant_id = ${merchant} AND (d.commit_position, d.prepare_position) < (${p}.commit_position, ${p}.prepare_position)
      ORDER BY d.commit_position DESC, d.prepare_position DESC LIMIT 1
    ), 0) END AS delay_days
  ) ${p}_held
  CROSS JOIN LATERAL (SELECT ((${p}.recorded_at AT TIME ZONE 'UTC') + interval '3 hours')::date + ${p}_held.delay_days AS available_on) ${p}_on`;

/** The Addis Ababa day of an instant (an SQL timestamptz expression): a credit whose `available_on` is after it is held then. */
export const addisDay = (instant: string) => `((${instant}::timestamptz AT TIME ZONE 'UTC') + interval '3 hours')::date`;
