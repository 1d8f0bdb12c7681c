import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';

/** A payable whose available balance is below zero: what its owner owes, and since when. */
export interface NegativeBalance {
  /** The merchant or account (`acct_…`) that owns the payable. */
  ownerId: string;
  /** The platform an account belongs to; null for a merchant's own payable. */
  platformId: string | null;
  /** The owner's name: the account's legal name or the merchant's registered name (null when the id names neither). */
  name: string | null;
  /** Signed santim, below zero. */
  balance: number;
  /** The first posting after which the balance has stayed below zero. */
  negativeSince: Date;
}

/**
 * The payables below zero now (ledger_balances), each with the instant it went below zero and has
 * stayed there since: the posting after the last one whose running balance was not negative. Both
 * probes walk the (account, recorded_at, …) index from the end, so a payable's history before its
 * last return to zero is never read.
 */
const NEGATIVE = `
  WITH negative AS (
    SELECT b.account, substring(b.account FROM '^merchant:(.*):payable$') AS owner_id, (b.credit - b.debit) AS balance
    FROM ledger_balances b
    WHERE b.account LIKE 'merchant:%:payable' AND b.credit < b.debit AND ($1::text[] IS NULL OR b.account = ANY($1::text[]))
  )
  SELECT n.owner_id, n.balance::text AS balance, a.merchant_id AS platform_id,
    COALESCE(a.document->>'name', m.name) AS name, since.recorded_at AS negative_since
  FROM negative n
  LEFT JOIN accounts_view a ON a.account_id = n.owner_id
  LEFT JOIN merchants_view m ON m.merchant_id = n.owner_id
  LEFT JOIN LATERAL (
    SELECT z.recorded_at, z.commit_position, z.prepare_position, z.line FROM ledger_postings z
    WHERE z.account = n.account AND z.running_balance >= 0
    ORDER BY z.recorded_at DESC, z.commit_position DESC, z.prepare_position DESC, z.line DESC LIMIT 1
  ) last_settled ON true
  CROSS JOIN LATERAL (
    SELECT p.recorded_at FROM ledger_postings p
    WHERE p.account = n.account
      AND (last_settled.recorded_at IS NULL
        OR (p.recorded_at, p.commit_position, p.prepare_position, p.line) > (last_settled.recorded_at, last_settled.commit_position, last_settled.prepare_position, last_settled.line))
    ORDER BY p.recorded_at, p.commit_position, p.prepare_position, p.line LIMIT 1
  ) since`;

type Row = { owner_id: string; balance: string; platform_id: string | null; name: string | null; negative_since: Date };

const present = (row: Row): NegativeBalance => ({
  ownerId: row.owner_id,
  platformId: row.platform_id,
  name: row.name,
  balance: Number(row.balance),
  negativeSince: new Date(row.negative_since),
});

/**
 * Every payable (an account's or a merchant's) below zero since before `since`, longest owed first:
 * the audit console's alert of balances left negative for longer than NEGATIVE_BALANCE_ALERT_DAYS.
 */
export async function negativeBalancesSince(db: SqlExecutor, since: Date, limit: number): Promise<NegativeBalance[]> {
  const rows = await db.query<Row>(`${NEGATIVE} WHERE since.recorded_at <= $2 ORDER BY since.recorded_at, n.owner_id LIMIT $3`, [null, since, limit]);
  return rows.map(present);
}

/**
 * The platform's accounts whose balance is below zero, longest owed first: what its sellers owe it
 * (the merchant dashboard's Sellers page lists them).
 */
export async function negativeAccountsOf(db: SqlExecutor, platformId: string): Promise<NegativeBalance[]> {
  const rows = await db.query<Row>(`${NEGATIVE} WHERE a.merchant_id = $2 ORDER BY since.recorded_at, n.owner_id`, [null, platformId]);
  return rows.map(present);
}

/** Of the given owners, those whose payable is below zero, by owner id: a page of accounts with what each owes. */
export async function negativeBalancesOf(db: SqlExecutor, ownerIds: readonly string[]): Promise<Map<string, NegativeBalance>> {
  if (ownerIds.length === 0) return new Map();
  const rows = await db.query<Row>(NEGATIVE, [ownerIds.map(ACCOUNTS.merchantPayable)]);
  return new Map(rows.map((row) => [row.owner_id, present(row)]));
}
