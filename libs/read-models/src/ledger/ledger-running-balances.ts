import type { SqlExecutor } from '@app/database';
import { writeLast } from '../projector/batch-writes';
import type { BatchContext } from '../projector/projection';

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
 *
 * That holds only if every step is an index probe whatever the planner believes of the table: the
 * statement is prepared once per connection, and its generic plan, made while ledger_postings was small
 * (or never analysed), joined the table by hash, reading all of it once or twice per batch (its seq_scan
 * in pg_stat_user_tables: one or two a lifecycle, each growing with the ledger). So each account's
 * postings are read through a LATERAL subquery behind OFFSET 0 (as keyedLookup in
 * ../projector/batch-reads.ts), and the changed ones are written back as an upsert on the primary key,
 * which probes that index for each row it writes where an UPDATE joined to them may scan the table.
 * Every row the upsert proposes is there (read in the same statement), so it only ever updates; it
 * carries the row's own values, which the table's NOT NULL columns check before the conflict is found.
 */
const SETTLE = `
  INSERT INTO ledger_postings (entry_id, line, account, debit, credit, memo, commit_position, prepare_position, recorded_at, running_balance)
  SELECT s.entry_id, s.line, s.account, s.debit, s.credit, s.memo, s.commit_position, s.prepare_position, s.recorded_at, s.running_balance
  FROM (
    SELECT q.*,
      COALESCE(before.running_balance, 0)
        + sum(q.credit - q.debit) OVER (PARTITION BY q.account ORDER BY q.recorded_at, q.commit_position, q.prepare_position, q.line) AS running_balance
    FROM (SELECT account, min(recorded_at) AS since FROM unnest($1::text[], $2::timestamptz[]) AS t(account, recorded_at) GROUP BY account) t
    LEFT JOIN LATERAL (
      SELECT b.running_balance FROM ledger_postings b WHERE b.account = t.account AND b.recorded_at < t.since
      ORDER BY b.recorded_at DESC, b.commit_position DESC, b.prepare_position DESC, b.line DESC LIMIT 1
    ) before ON true
    CROSS JOIN LATERAL (
      SELECT q.entry_id, q.line, q.account, q.debit, q.credit, q.memo, q.commit_position, q.prepare_position, q.recorded_at, q.running_balance AS was
      FROM ledger_postings q WHERE q.account = t.account AND q.recorded_at >= t.since OFFSET 0
    ) q
  ) s
  WHERE s.was IS DISTINCT FROM s.running_balance
  ON CONFLICT (entry_id, line) DO UPDATE SET running_balance = EXCLUDED.running_balance`;

const settleParams = (postings: readonly TimedPosting[]) => [postings.map((p) => p.account), postings.map((p) => p.recorded_at.toISOString())];

/** Brings the running balances of the accounts `postings` touch up to date, once they are written (same transaction). */
export async function settleRunningBalances(db: Pick<SqlExecutor, 'query'>, postings: readonly TimedPosting[]): Promise<void> {
  if (postings.length === 0) return;
  await db.query(SETTLE, settleParams(postings));
}

/**
 * The same as one of the batch's final writes (batch-writes.ts), sent with the projector's checkpoint move
 * rather than alone: it reads the postings written by an earlier statement of the batch, and no other
 * final write touches ledger_postings; nothing in the batch reads a running balance before it ends.
 */
export async function settleRunningBalancesLast(tx: SqlExecutor, context: BatchContext, postings: readonly TimedPosting[]): Promise<void> {
  if (postings.length === 0) return;
  await writeLast(tx, context, SETTLE, settleParams(postings));
}

/** A posting as a rebuild copies it in: its place in its account's order, what it moves, and its running balance once known. */
export interface CopiedPosting extends TimedPosting {
  commit_position: string;
  prepare_position: string;
  line: number;
  debit: number;
  credit: number;
  running_balance?: string | null;
}

/** Each account's last posting so far, by the order a running balance follows (one index probe per account). */
const LAST_POSTED = `
  SELECT t.account, last.recorded_at, last.commit_position::text AS commit_position, last.prepare_position::text AS prepare_position,
    last.line, last.running_balance::text AS running_balance
  FROM unnest($1::text[]) AS t(account)
  CROSS JOIN LATERAL (
    SELECT b.recorded_at, b.commit_position, b.prepare_position, b.line, b.running_balance FROM ledger_postings b WHERE b.account = t.account
    ORDER BY b.recorded_at DESC, b.commit_position DESC, b.prepare_position DESC, b.line DESC LIMIT 1
  ) last`;

type Place = Pick<CopiedPosting, 'recorded_at' | 'commit_position' | 'prepare_position' | 'line'>;

function comparePlaces(a: Place, b: Place): number {
  const time = a.recorded_at.getTime() - b.recorded_at.getTime();
  if (time !== 0) return time;
  const commit = BigInt(a.commit_position) - BigInt(b.commit_position);
  if (commit !== 0n) return commit < 0n ? -1 : 1;
  const prepare = BigInt(a.prepare_position) - BigInt(b.prepare_position);
  if (prepare !== 0n) return prepare < 0n ? -1 : 1;
  return a.line - b.line;
}

/**
 * A rebuild's batch of postings with their running balances, before they are copied in: a rebuild
 * copies the log's postings mostly in the order their balances run, so settling them in memory on
 * top of each account's last stored posting spares updating every row just copied (about a quarter of
 * the database's time in a rebuild, when SETTLE did it). Answers the postings whose account had a later
 * posting stored already (recorded before it, committed after): their balances are left to
 * settleRunningBalances once the batch is copied, as on the live path.
 */
export async function settleBeforeCopy(db: Pick<SqlExecutor, 'query'>, postings: readonly CopiedPosting[]): Promise<CopiedPosting[]> {
  if (postings.length === 0) return [];
  const byAccount = new Map<string, CopiedPosting[]>();
  for (const posting of postings) {
    const account = byAccount.get(posting.account);
    if (account) account.push(posting);
    else byAccount.set(posting.account, [posting]);
  }
  const stored = await db.query<Place & { account: string; running_balance: string | null }>(LAST_POSTED, [[...byAccount.keys()]]);
  const last = new Map(stored.map((row) => [row.account, row]));
  const unsettled: CopiedPosting[] = [];
  for (const [account, lines] of byAccount) {
    lines.sort(comparePlaces);
    const before = last.get(account);
    if (before && comparePlaces(before, lines[0]) > 0) {
      for (const line of lines) line.running_balance = null;
      unsettled.push(...lines);
      continue;
    }
    let balance = BigInt(before?.running_balance ?? 0);
    for (const line of lines) {
      balance += BigInt(line.credit) - BigInt(line.debit);
      line.running_balance = balance.toString();
    }
  }
  return unsettled;
}
