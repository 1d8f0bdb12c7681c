import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';

/** One entry of the period, signed santim (credits less debits on the accounts read), with the event that caused it and its wording for these accounts. */
export interface PeriodPosting {
  eventId: string;
  eventType: string;
  streamId: string;
  description: string;
  recordedAt: Date;
  amount: number;
  /**
   * What fees accounts other than those read took of the movement, signed santim: a seller's release
   * reads gross (amount + fee), fee, net (amount), as its payout report reads it.
   */
  fee: number;
}

export interface AccountPeriod {
  /** What the accounts held at `from`: credits less debits of every posting recorded before it. */
  opening: number;
  /** The entries recorded in [from, to), in log order, one each however many of the accounts it posts to. */
  postings: PeriodPosting[];
}

/**
 * The opening is the sum of each account's running balance at its last posting before `from` (one
 * probe of the (account, recorded_at, …) index each), the period a range of the same index per
 * account: the cost follows the period, not the history before it. One statement, so both come from
 * one snapshot; an empty period still yields the opening, on a row without a posting.
 */
const PERIOD = `
  SELECT o.opening, m.event_id, m.event_type, m.stream_id, m.description, m.recorded_at, m.amount,
    (SELECT COALESCE(SUM(f.credit - f.debit), 0) FROM ledger_postings f
     WHERE f.entry_id = m.event_id AND ${ACCOUNTS.merchantFees.matches('f.account')} AND f.account <> ALL($1::text[]))::text AS fee
  FROM (
    SELECT COALESCE(SUM((
      SELECT running_balance FROM ledger_postings WHERE account = a.account AND recorded_at < $2
      ORDER BY recorded_at DESC, commit_position DESC, prepare_position DESC, line DESC LIMIT 1
    )), 0)::text AS opening
    FROM unnest($1::text[]) AS a(account)
  ) o
  LEFT JOIN LATERAL (
    SELECT e.event_id, e.event_type, e.stream_id, COALESCE(MAX(p.memo), e.description) AS description, p.recorded_at, SUM(p.credit - p.debit)::text AS amount,
      p.commit_position, p.prepare_position, MIN(p.line) AS line
    FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
    WHERE p.account = ANY($1::text[]) AND p.recorded_at >= $2 AND p.recorded_at < $3
    GROUP BY e.entry_id, e.event_id, e.event_type, e.stream_id, e.description, p.recorded_at, p.commit_position, p.prepare_position
  ) m ON true
  ORDER BY m.commit_position, m.prepare_position, m.line`;

/**
 * Accounts over [from, to), as one: what they held at `from` and what moved in the period, from the
 * ledger read model (a merchant's statement reads its payable and fees: payoutAccounts).
 */
export async function accountPeriod(db: SqlExecutor, accounts: readonly string[], from: Date, to: Date): Promise<AccountPeriod> {
  const rows = await db.query<{
    opening: string;
    event_id: string | null;
    event_type: string;
    stream_id: string;
    description: string;
    recorded_at: Date;
    amount: string;
    fee: string;
  }>(PERIOD, [[...accounts], from, to]);
  return {
    opening: Number(rows[0].opening),
    postings: rows
      .filter((row) => row.event_id !== null)
      .map((row) => ({
        eventId: row.event_id!,
        eventType: row.event_type,
        streamId: row.stream_id,
        description: row.description,
        recordedAt: new Date(row.recorded_at),
        amount: Number(row.amount),
        fee: Number(row.fee),
      })),
  };
}
