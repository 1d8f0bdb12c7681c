import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import type { PayableMovement } from '@app/domain';

/**
 * Every movement of the merchant's payable the ledger has posted, but its own payouts' (the payout
 * account keeps those) and those a payout of its own that has not failed settles: a payout is not handed
 * the merchant's whole history to sift. Its own: one event may move two payables (a transfer), and the
 * other side's payout settling it settles nothing here.
 */
const MOVEMENTS = `
  SELECT e.event_id, (p.credit - p.debit)::bigint AS amount
  FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
  WHERE p.account = $1 AND e.event_type NOT LIKE 'Payout%'
    AND NOT EXISTS (SELECT 1 FROM payout_movements m JOIN payouts_view v ON v.payout_id = m.payout_id WHERE m.event_id = e.event_id AND v.merchant_id = $2 AND v.status <> 'FAILED')
  ORDER BY p.commit_position, p.prepare_position, p.line`;

/**
 * What a payout may settle, as the read models know it: on demand and on schedule alike. The read may
 * lag or repeat (a payout just requested is not projected yet); the payout account pays only what no
 * standing payout settles.
 */
export async function payableMovementsToSettle(db: SqlExecutor, merchantId: string): Promise<PayableMovement[]> {
  const rows = await db.query<{ event_id: string; amount: string }>(MOVEMENTS, [ACCOUNTS.merchantPayable(merchantId), merchantId]);
  return rows.map((row) => ({ eventId: row.event_id, amount: Number(row.amount) }));
}
