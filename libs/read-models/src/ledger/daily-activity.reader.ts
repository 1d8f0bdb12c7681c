import { payoutAccounts } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { addisDayOf, addisMidnight, DAY_MS } from '@app/domain';
import { type BalanceTransactionType, eventTypesOf, otherFeesOf } from './balance-transactions.reader';
import { addisDay } from './credit-availability.sql';

/** The balance transactions a merchant's volume counts: what its sales brought in (its orders paid, releases to it, its fees of escrows), never refunds, transfers or payouts. */
export const VOLUME_TYPES: readonly BalanceTransactionType[] = ['payment', 'release', 'fee'];

/** One Addis Ababa day of a merchant's money, santim. */
export interface DailyActivity {
  /** The day, `YYYY-MM-DD` (Addis Ababa). */
  day: string;
  /** The gross of the day's balance transactions of VOLUME_TYPES (before another merchant's fee). */
  volume: number;
  /** The amounts of the payouts requested that day that are neither failed nor canceled. */
  payouts: number;
}

/**
 * The volume by day: the gross of each line of the payable and fees whose entry is one of the volume's
 * event types (balance-transactions.reader.ts: net on the two accounts plus what other merchants' fees
 * took), read along the (account, recorded_at, …) index over the days asked for only.
 */
const VOLUME = `
  SELECT ${addisDay('x.recorded_at')}::text AS day, SUM(own.net + ${otherFeesOf('x.entry_id', '$2')})::text AS amount
  FROM (SELECT DISTINCT p.entry_id FROM ledger_postings p WHERE p.account IN ($1, $2) AND p.recorded_at >= $3 AND p.recorded_at < $4) l
  JOIN ledger_entries x ON x.entry_id = l.entry_id
  CROSS JOIN LATERAL (SELECT SUM(o.credit - o.debit) AS net FROM ledger_postings o WHERE o.entry_id = l.entry_id AND o.account IN ($1, $2)) own
  WHERE x.event_type = ANY($5::text[])
  GROUP BY 1`;

/** The payouts by the day they were requested, as the payouts list has them (payouts_view), those that failed or were canceled left out: they paid nothing. */
const PAYOUTS = `
  SELECT ${addisDay('requested_at')}::text AS day, SUM(amount)::text AS amount
  FROM payouts_view WHERE merchant_id = $1 AND requested_at >= $2 AND requested_at < $3 AND status NOT IN ('FAILED', 'CANCELED')
  GROUP BY 1`;

/**
 * The merchant's volume and payouts on each of the `days` Addis Ababa days up to and including the day
 * of `now`, oldest first, every day present (zero when nothing happened): a dashboard's chart.
 */
export async function dailyActivity(db: SqlExecutor, merchantId: string, now: Date, days: number): Promise<DailyActivity[]> {
  const midnight = addisMidnight(now.getTime());
  const dates = Array.from({ length: days }, (_, i) => addisDayOf(midnight - (days - 1 - i) * DAY_MS));
  const [from, to] = [new Date(midnight - (days - 1) * DAY_MS), new Date(midnight + DAY_MS)];
  const [payable, fees] = payoutAccounts(merchantId);
  const [volume, payouts] = await Promise.all([
    db.query<{ day: string; amount: string }>(VOLUME, [payable, fees, from, to, eventTypesOf(VOLUME_TYPES)]),
    db.query<{ day: string; amount: string }>(PAYOUTS, [merchantId, from, to]),
  ]);
  const byDay = (rows: { day: string; amount: string }[]) => new Map(rows.map((row) => [row.day, Number(row.amount)]));
  const [volumes, paid] = [byDay(volume), byDay(payouts)];
  return dates.map((day) => ({ day, volume: volumes.get(day) ?? 0, payouts: paid.get(day) ?? 0 }));
}
