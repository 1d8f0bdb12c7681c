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
