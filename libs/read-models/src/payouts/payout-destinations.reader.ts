import type { SqlExecutor } from '@app/database';
import type { PayoutDestination } from '@app/domain';

/** One version of the merchant's destination (a payout in flight is sent to the version it was requested for). */
export async function destinationVersion(db: SqlExecutor, merchantId: string, version: number): Promise<PayoutDestination | undefined> {
  const [row] = await db.query<{ destination: PayoutDestination }>(`SELECT destination FROM payout_destination_versions WHERE merchant_id = $1 AND version = $2`, [merchantId, version]);
  return row?.destination;
}
