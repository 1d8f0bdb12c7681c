import { ACCOUNTS } from '@app/audit';
import { SqlParameters, type SqlExecutor } from '@app/database';
import type { Account, AccountStatus, DestinationOnFile } from '@app/domain';
import { DEBTOR_OWNERS } from '../ledger/negative-balances.reader';

/** An account as stored, with the payout destination on file for it (holder and time only). */
export interface StoredAccount {
  account: Account;
  destination?: DestinationOnFile;
}

type Row = { document: Account; holder_name: string | null; version: number | null; set_at: Date | null; holds: boolean | null };

const SELECT = `SELECT a.document, d.holder_name, d.version, d.set_at, d.holds FROM accounts_view a LEFT JOIN payout_destination_holders d ON d.merchant_id = a.account_id`;

const stored = (row: Row): StoredAccount => ({
  account: row.document,
  ...(row.holder_name === null
    ? {}
    : { destination: { holderName: row.holder_name, version: Number(row.version), setAt: new Date(row.set_at!).toISOString(), ...(row.holds === null ? {} : { holds: row.holds }) } }),
});

/** One of the merchant's accounts; undefined for another merchant's, as for none. */
export async function ownedAccount(db: SqlExecutor, merchantId: string, accountId: string): Promise<StoredAccount | undefined> {
  const [row] = await db.query<Row>(`${SELECT} WHERE a.account_id = $1 AND a.merchant_id = $2`, [accountId, merchantId]);
  return row && stored(row);
}

/** Any account, for the operator's staff. */
export async function anyAccount(db: SqlExecutor, accountId: string): Promise<StoredAccount | undefined> {
  const [row] = await db.query<Row>(`${SELECT} WHERE a.account_id = $1`, [accountId]);
  return row && stored(row);
}

/**
 * A page of the merchant's accounts, newest first, after the account `startingAfter` names (undefined
 * when it names none of the merchant's), optionally of one status, or only those whose balance is
 * below zero now (ledger_balances: what they owe the platform), read as negative-balances.reader.ts
 * reads it: the payable and fees accounts together (payoutAccounts), as the balance's `available`.
 */
export async function accountsPage(
  db: SqlExecutor,
  merchantId: string,
  options: { limit: number; startingAfter?: string; status?: AccountStatus; negativeOnly?: boolean },
): Promise<{ accounts: StoredAccount[]; hasMore: boolean } | undefined> {
  let after: { created_at: Date; account_id: string } | undefined;
  if (options.startingAfter !== undefined) {
    [after] = await db.query<{ created_at: Date; account_id: string }>(`SELECT created_at, account_id FROM accounts_view WHERE account_id = $1 AND merchant_id = $2`, [
      options.startingAfter,
      merchantId,
    ]);
    if (!after) return undefined;
  }
  // Only the conditions asked for (SqlParameters), so that a generic plan bounds its scan by the cursor.
  const values = new SqlParameters();
  const where = [`a.merchant_id = ${values.add(merchantId)}`];
  if (options.status !== undefined) where.push(`a.status = ${values.add(options.status)}`);
  if (after) where.push(`(a.created_at, a.account_id) < (${values.add(after.created_at)}::timestamptz, ${values.add(after.account_id)}::text)`);
  // Only the owners with an account below zero are read for `negativeOnly` (DEBTOR_OWNERS), so its cost does not grow with the sellers who owe nothing.
  if (options.negativeOnly) {
    where.push(
      `a.account_id IN (SELECT owner_id FROM debtors) AND (SELECT sum(b.credit - b.debit) FROM ledger_balances b WHERE b.account IN (${ACCOUNTS.merchantPayable.of('a.account_id')}, ${ACCOUNTS.merchantFees.of('a.account_id')})) < 0`,
    );
  }
  const rows = await db.query<Row>(
    `${options.negativeOnly ? `WITH debtors AS MATERIALIZED (${DEBTOR_OWNERS}) ` : ''}${SELECT}
     WHERE ${where.join(' AND ')} ORDER BY a.created_at DESC, a.account_id DESC LIMIT ${values.add(options.limit + 1)}`,
    values.values,
  );
  return { accounts: rows.slice(0, options.limit).map(stored), hasMore: rows.length > options.limit };
}

/** Accounts waiting for the operator's review (new, or restricted after a change), oldest first: the console's queue. */
export async function accountsToReview(db: SqlExecutor, limit: number): Promise<StoredAccount[]> {
  const rows = await db.query<Row>(`${SELECT} WHERE a.status IN ('PENDING_VERIFICATION', 'RESTRICTED') ORDER BY a.updated_at, a.account_id LIMIT $1`, [limit]);
  return rows.map(stored);
}

/** A payable account in the ledger, with its balance in santim (credits less debits; a payable is never near 2^53 santim). */
export interface UnownedPayable {
  account: string;
  balance: number;
}

/**
 * Every `merchant:{id}:payable` whose id is neither a registered merchant nor an account: what
 * releases to free allocation ids left where no one can pay it out.
 */
export async function unownedPayables(db: SqlExecutor): Promise<UnownedPayable[]> {
  const rows = await db.query<{ account: string; balance: string }>(
    `SELECT b.account, (b.credit - b.debit)::text AS balance FROM ledger_balances b
     WHERE ${ACCOUNTS.merchantPayable.matches('b.account')}
       AND NOT EXISTS (SELECT 1 FROM merchants_view m WHERE b.account = ${ACCOUNTS.merchantPayable.of('m.merchant_id')})
       AND NOT EXISTS (SELECT 1 FROM accounts_view a WHERE b.account = ${ACCOUNTS.merchantPayable.of('a.account_id')})
     ORDER BY b.account`,
  );
  return rows.map((row) => ({ account: row.account, balance: Number(row.balance) }));
}
