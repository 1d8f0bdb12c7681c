import type { SqlExecutor } from '@app/database';
import { type PayoutAccountState, PayoutNotFound } from '@app/domain';
import type { PayoutView } from '@app/read-models';

/** The destination as a merchant may see it: the account masked, never its reference or fingerprint. */
export function presentDestination(state: PayoutAccountState) {
  const current = state.destination;
  if (!current) return null;
  const { kind, institution, holderName, accountMask } = current.destination;
  return { kind, institution, holderName, accountNumber: accountMask, version: current.version };
}

export type PresentedDestination = NonNullable<ReturnType<typeof presentDestination>>;

/** The merchant's payouts, newest first. */
export async function merchantPayouts(db: SqlExecutor, merchantId: string): Promise<PayoutView[]> {
  const rows = await db.query<{ document: PayoutView }>(
    `SELECT document FROM payouts_view WHERE merchant_id = $1 ORDER BY requested_at DESC, payout_id DESC LIMIT 100`,
    [merchantId],
  );
  return rows.map((row) => row.document);
}

/** One payout of the merchant's; another merchant's is not found, as an unknown one. */
export async function ownedPayout(db: SqlExecutor, payoutId: string, merchantId: string): Promise<PayoutView> {
  const [row] = await db.query<{ document: PayoutView }>(`SELECT document FROM payouts_view WHERE payout_id = $1 AND merchant_id = $2`, [payoutId, merchantId]);
  if (!row) throw new PayoutNotFound(payoutId);
  return row.document;
}
