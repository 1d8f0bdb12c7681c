import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import type { PayableMovement } from '@app/domain';

/** Every movement of the merchant's payable the ledger has posted, but its own payouts' (the payout account keeps those). */
const MOVEMENTS = `
  SELECT e.event_id, (p.credit - p.debit)::bigint AS amount
  FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
  WHERE p.account = $1 AND e.event_type NOT LIKE 'Payout%'
  ORDER BY p.commit_position, p.prepare_position, p.line`;

/**
 * What a payout may settle, as the ledger read model knows it: on demand and on schedule alike. The
 * read may lag or repeat; the payout account pays only what no standing payout settles.
 */
export async function payableMovementsToSettle(db: SqlExecutor, merchantId: string): Promise<PayableMovement[]> {
  const rows = await db.query<{ event_id: string; amount: string }>(MOVEMENTS, [ACCOUNTS.merchantPayable(merchantId)]);
  return rows.map((row) => ({ eventId: row.event_id, amount: Number(row.amount) }));
}
