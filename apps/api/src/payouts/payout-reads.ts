import type { SqlExecutor } from '@app/database';
import { type DestinationInForce, PayoutNotFound } from '@app/domain';
import { latestPayouts, merchantPayout, type PayoutView } from '@app/read-models';

/** The destination as a merchant may see it: the account masked, never its reference or fingerprint. */
export function presentDestination(current: DestinationInForce | undefined) {
  if (!current) return null;
  const { kind, institution, holderName, accountMask } = current.destination;
  return { kind, institution, holderName, accountNumber: accountMask, version: current.version };
}

export type PresentedDestination = NonNullable<ReturnType<typeof presentDestination>>;

/** The merchant's payouts, newest first. */
export function merchantPayouts(db: SqlExecutor, merchantId: string): Promise<PayoutView[]> {
  return latestPayouts(db, merchantId, 100);
}

/** One payout of the merchant's; another merchant's is not found, as an unknown one. */
export async function ownedPayout(db: SqlExecutor, payoutId: string, merchantId: string): Promise<PayoutView> {
  const payout = await merchantPayout(db, payoutId, merchantId);
  if (!payout) throw new PayoutNotFound(payoutId);
  return payout;
}
