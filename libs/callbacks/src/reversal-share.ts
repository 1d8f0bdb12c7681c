import { type EscrowRefund, type Santim, subtractSantim, toEtbNumber, ZERO } from '@app/domain';

/** How an allocation's merchant bore its share of a reversal: `merchantDebited` from its balance, `feeReturned` from the escrow creator's fees; they add up to the share. */
export interface ReversalShare {
  merchantDebited: Santim;
  feeReturned: Santim;
}

/** A reversal's share as its merchant bore it; undefined for a refund of held money, which no one's balance had. */
export function reversalShare(refund: Pick<EscrowRefund, 'reason' | 'feeReturned'>, share: { amount: Santim }): ReversalShare | undefined {
  if (refund.reason !== 'REVERSED') return undefined;
  const feeReturned = refund.feeReturned ?? ZERO;
  return { merchantDebited: subtractSantim(share.amount, feeReturned), feeReturned };
}

/** The REFUNDED callbacks' fields of a reversal's share (the platform's and the seller's alike), in ETB. */
export function reversalFields(borne: ReversalShare | undefined): { merchantDebited?: number; feeReturned?: number } {
  return borne ? { merchantDebited: toEtbNumber(borne.merchantDebited), feeReturned: toEtbNumber(borne.feeReturned) } : {};
}
