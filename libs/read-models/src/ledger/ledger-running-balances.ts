import type { SqlExecutor } from '@app/database';

/** A posting as far as its account's running balance cares: where it falls in time. */
export interface TimedPosting {
  account: string;
  recorded_at: Date;
}

/**
 * Every posting carries its account's running balance (credits less debits, through that posting) in
 * the order a statement reads time: recorded_at, then log position. Postings arrive in log order, and
 * a posting recorded before others already there (a transaction that started first and committed
 * last) moves the balances after it: each touched account is summed again from the earliest instant
 * the batch posts to, on top of the balance stored just before it. Postings recorded in the order they
 * are logged make that the batch's own rows, so the cost follows the batch, not the account's history.
 */
const SETTLE = `
  WITH touched AS (
    SELECT account, min(recorded_at) AS since FROM unnest($1::text[], $2::timestamptz[]) AS t(account, recorded_at) GROUP BY account
  ),
  settled AS (
    SELECT p.entry_id, p.line,
      COALESCE(before.running_balance, 0)
        + sum(p.credit - p.debit) OVER (PARTITION BY p.account ORDER BY p.recorded_at, p.commit_position, p.prepare_position, p.line) AS running_balance
    FROM touched t
    LEFT JOIN LATERAL (
      SELECT b.running_balance FROM ledger_postings b WHERE b.account = t.account AND b.recorded_at < t.since
      ORDER BY b.recorded_at DESC, b.commit_position DESC, b.prepare_position DESC, b.line DESC LIMIT 1
    ) before ON true
    JOIN ledger_postings p ON p.account = t.account AND p.recorded_at >= t.since
  )
  UPDATE ledger_postings p SET running_balance = s.running_balance FROM settled s
  WHERE p.entry_id = s.entry_id AND p.line = s.line AND p.running_balance IS DISTINCT FROM s.running_balance`;

/** Brings the running balances of the accounts `postings` touch up to date, once they are written (same transaction). */
export async function settleRunningBalances(db: Pick<SqlExecutor, 'query'>, postings: readonly TimedPosting[]): Promise<void> {
  if (postings.length === 0) return;
  await db.query(SETTLE, [postings.map((p) => p.account), postings.map((p) => p.recorded_at.toISOString())]);
}
