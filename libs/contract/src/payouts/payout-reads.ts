import type { SqlExecutor } from '@app/database';
import { type Account, destinationHeldUntil, type DestinationInForce, destinationOnFile, InvalidInput, PayoutNotFound, sameHolder } from '@app/domain';
import { merchantPayout, type PayoutListPage, payoutsPage, type PayoutView } from '@app/read-models';

/** The destination as a merchant may see it: the account masked, never its reference or fingerprint. */
export function presentDestination(current: DestinationInForce | undefined) {
  if (!current) return null;
  const { kind, institution, holderName, accountMask } = current.destination;
  return { kind, institution, holderName, accountNumber: accountMask, version: current.version };
}

export type PresentedDestination = NonNullable<ReturnType<typeof presentDestination>>;

/**
 * The destination as the API answers it: for a seller account, whether its holder is the account's
 * legal name (compared as account-requirements.ts `sameHolder` does: case, spacing and punctuation
 * aside) with a warning when not, and until when setting it holds payouts; nulls for a merchant of its
 * own, which has no legal name on file and no hold.
 */
export function destinationAnswer(current: DestinationInForce | undefined, account: Account | undefined, holdMs: number, now: Date) {
  const presented = presentDestination(current);
  if (!current || !presented) return null;
  if (!account) return { ...presented, holderNameMatches: null, warning: null, payoutsHeldUntil: null };
  const matches = sameHolder(current.destination.holderName, account.name);
  const heldUntil = destinationHeldUntil(destinationOnFile(current), holdMs);
  return {
    ...presented,
    holderNameMatches: matches,
    warning: matches
      ? null
      : `The holder "${current.destination.holderName}" is not the account's legal name "${account.name}": the account is not paid out until its destination is held in that name (requirement payoutDestination.holderName)`,
    payoutsHeldUntil: heldUntil !== undefined && heldUntil > now.getTime() ? new Date(heldUntil).toISOString() : null,
  };
}

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
