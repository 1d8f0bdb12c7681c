import type { SqlExecutor } from '@app/database';
import { type DestinationInForce, InvalidInput, PayoutNotFound } from '@app/domain';
import { merchantPayout, type PayoutListPage, payoutsPage, type PayoutView } from '@app/read-models';

/** The destination as a merchant may see it: the account masked, never its reference or fingerprint. */
export function presentDestination(current: DestinationInForce | undefined) {
  if (!current) return null;
  const { kind, institution, holderName, accountMask } = current.destination;
  return { kind, institution, holderName, accountNumber: accountMask, version: current.version };
}

export type PresentedDestination = NonNullable<ReturnType<typeof presentDestination>>;

/** A page of the merchant's payouts, newest first, after the payout `startingAfter` names (one of its own). */
export async function merchantPayouts(db: SqlExecutor, merchantId: string, limit: number, startingAfter?: string): Promise<PayoutListPage> {
  const page = await payoutsPage(db, merchantId, limit, startingAfter);
  if (!page) throw new InvalidInput('startingAfter must be the payoutId of one of the payouts listed', 'UNKNOWN_CURSOR');
  return page;
}

/** One payout of the merchant's; another merchant's is not found, as an unknown one. */
export async function ownedPayout(db: SqlExecutor, payoutId: string, merchantId: string): Promise<PayoutView> {
  const payout = await merchantPayout(db, payoutId, merchantId);
  if (!payout) throw new PayoutNotFound(payoutId);
  return payout;
}
