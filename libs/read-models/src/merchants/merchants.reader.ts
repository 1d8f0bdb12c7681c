import type { SqlExecutor } from '@app/database';

export interface NamedMerchant {
  merchantId: string;
  name: string;
}

/** The name a merchant registered with, for pages that print who a statement is about. */
export async function merchantName(db: SqlExecutor, merchantId: string): Promise<string | undefined> {
  const [row] = await db.query<{ name: string }>(`SELECT name FROM merchants_view WHERE merchant_id = $1`, [merchantId]);
  return row?.name;
}

/** The names of those of `ids` that name a platform's account (its legal name) or a merchant (its registered name), by id: one query for a page. */
export async function partyNames(db: SqlExecutor, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; name: string }>(
    `SELECT o.id, COALESCE(a.document->>'name', m.name) AS name
     FROM unnest($1::text[]) AS o(id)
     LEFT JOIN accounts_view a ON a.account_id = o.id
     LEFT JOIN merchants_view m ON m.merchant_id = o.id
     WHERE COALESCE(a.document->>'name', m.name) IS NOT NULL`,
    [[...ids]],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Whom a ledger id (`merchant:{id}:payable`) belongs to: a registered merchant, or a platform's account (`acct_…`) with its platform. */
export type PayableOwner = { kind: 'merchant'; name: string } | { kind: 'account'; name: string; platformId: string; platformName: string | undefined };

/** Whom `ownerId` names, for pages that print whose statement they show; undefined when it names neither a merchant nor an account. */
export async function payableOwner(db: SqlExecutor, ownerId: string): Promise<PayableOwner | undefined> {
  const [row] = await db.query<{ merchant_name: string | null; account_name: string | null; platform_id: string | null; platform_name: string | null }>(
    `SELECT m.name AS merchant_name, a.document->>'name' AS account_name, a.merchant_id AS platform_id, p.name AS platform_name
     FROM (SELECT $1::text AS id) owner
     LEFT JOIN merchants_view m ON m.merchant_id = owner.id
     LEFT JOIN accounts_view a ON a.account_id = owner.id
     LEFT JOIN merchants_view p ON p.merchant_id = a.merchant_id`,
    [ownerId],
  );
  if (row.account_name !== null) return { kind: 'account', name: row.account_name, platformId: row.platform_id!, platformName: row.platform_name ?? undefined };
  return row.merchant_name === null ? undefined : { kind: 'merchant', name: row.merchant_name };
}

/** The most recently registered merchants, for a console's merchant chooser. */
export async function registeredMerchants(db: SqlExecutor, limit: number): Promise<NamedMerchant[]> {
  const rows = await db.query<{ merchant_id: string; name: string }>(`SELECT merchant_id, name FROM merchants_view ORDER BY registered_at DESC, merchant_id LIMIT $1`, [limit]);
  return rows.map((row) => ({ merchantId: row.merchant_id, name: row.name }));
}

/** Every merchant, in the order they registered: the operator's list. */
export async function allMerchants(db: SqlExecutor): Promise<(NamedMerchant & { registeredAt: Date })[]> {
  const rows = await db.query<{ merchant_id: string; name: string; registered_at: Date }>(`SELECT merchant_id, name, registered_at FROM merchants_view ORDER BY registered_at`);
  return rows.map((row) => ({ merchantId: row.merchant_id, name: row.name, registeredAt: new Date(row.registered_at) }));
}
