import type { SqlExecutor } from '@app/database';

/** One posting of the period, signed santim (credits less debits), with the event that caused it and its wording for this account. */
export interface PeriodPosting {
  eventId: string;
  eventType: string;
  streamId: string;
  description: string;
  recordedAt: Date;
  amount: number;
}

export interface AccountPeriod {
  /** What the account held at `from`: credits less debits of every posting recorded before it. */
  opening: number;
  /** The postings recorded in [from, to), in log order. */
  postings: PeriodPosting[];
}

/**
 * The opening is the running balance of the account's last posting before `from` (one probe of the
 * (account, recorded_at, …) index), the period a range of the same index: the cost follows the
 * period, not the history before it. One statement, so both come from one snapshot; an empty period
 * still yields the opening, on a row without a posting.
 */
const PERIOD = `
  SELECT o.opening, m.event_id, m.event_type, m.stream_id, m.description, m.recorded_at, m.amount
  FROM (
    SELECT COALESCE((
      SELECT running_balance FROM ledger_postings WHERE account = $1 AND recorded_at < $2
      ORDER BY recorded_at DESC, commit_position DESC, prepare_position DESC, line DESC LIMIT 1
    ), 0)::text AS opening
  ) o
  LEFT JOIN LATERAL (
    SELECT e.event_id, e.event_type, e.stream_id, COALESCE(p.memo, e.description) AS description, p.recorded_at, (p.credit - p.debit)::text AS amount,
      p.commit_position, p.prepare_position, p.line
    FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
    WHERE p.account = $1 AND p.recorded_at >= $2 AND p.recorded_at < $3
  ) m ON true
  ORDER BY m.commit_position, m.prepare_position, m.line`;

/** An account over [from, to): what it held at `from` and what moved in the period, from the ledger read model. */
export async function accountPeriod(db: SqlExecutor, account: string, from: Date, to: Date): Promise<AccountPeriod> {
  const rows = await db.query<{
    opening: string;
    event_id: string | null;
    event_type: string;
    stream_id: string;
    description: string;
    recorded_at: Date;
    amount: string;
  }>(PERIOD, [account, from, to]);
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
      })),
  };
}
