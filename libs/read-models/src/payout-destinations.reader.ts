import type { SqlExecutor } from '@app/database';
import type { PayoutDestination } from '@app/domain';

/** A version of a merchant's payout destination, as the read model keeps it (payout_destination_versions). */
export interface DestinationVersion {
  version: number;
  destination: PayoutDestination;
}

/** The merchant's latest destination version, whichever stream set it; undefined when none was set. */
export async function latestDestinationVersion(db: SqlExecutor, merchantId: string): Promise<DestinationVersion | undefined> {
  const [row] = await db.query<{ version: number; destination: PayoutDestination }>(
    `SELECT version, destination FROM payout_destination_versions WHERE merchant_id = $1 ORDER BY version DESC LIMIT 1`,
    [merchantId],
  );
  return row && { version: row.version, destination: row.destination };
}

/** One version of the merchant's destination (a payout in flight is sent to the version it was requested for). */
export async function destinationVersion(db: SqlExecutor, merchantId: string, version: number): Promise<PayoutDestination | undefined> {
  const [row] = await db.query<{ destination: PayoutDestination }>(`SELECT destination FROM payout_destination_versions WHERE merchant_id = $1 AND version = $2`, [merchantId, version]);
  return row?.destination;
}
