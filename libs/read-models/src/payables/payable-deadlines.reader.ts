import type { SqlExecutor } from '@app/database';
import { onRealTime } from '../test-clocks/test-clock-objects.reader';

/** A payable and the instant something falls due for it. */
export interface PayableDeadline {
  payableId: string;
  at: Date;
}

/** Unpaid orders and escrows whose payment window closes by `by`: what the payment work expires (those on a test clock, its advances). */
export async function expiriesDue(db: SqlExecutor, by: Date): Promise<PayableDeadline[]> {
  const rows = await db.query<{ payable_id: string; expires_at: Date }>(`SELECT payable_id, expires_at FROM payables_view WHERE status = 'PENDING' AND expires_at <= $1 AND ${onRealTime('payable_id')}`, [by]);
  return rows.map((row) => ({ payableId: row.payable_id, at: new Date(row.expires_at) }));
}

/** Escrows whose automatic release instant comes by `by`: what the payment work releases (those on a test clock, its advances). */
export async function autoReleasesDue(db: SqlExecutor, by: Date): Promise<PayableDeadline[]> {
  const rows = await db.query<{ payable_id: string; auto_release_at: Date }>(
    `SELECT payable_id, auto_release_at FROM payables_view WHERE auto_release_at IS NOT NULL AND auto_release_at <= $1 AND ${onRealTime('payable_id')}`,
    [by],
  );
  return rows.map((row) => ({ payableId: row.payable_id, at: new Date(row.auto_release_at) }));
}
