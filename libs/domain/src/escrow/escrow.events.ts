import type { AppliedCommission } from '../commission/commission.decider';
import type { NamedPaymentEvent, RefundRequest } from '../payment/payment.events';
import type { Santim } from '../shared/money';
import type { Item, PayableTerms } from '../shared/payable-terms';

export type { Customer } from '../shared/payable-terms';

export type EscrowItem = Item & { productId: string };

export interface AllocationTerms {
  merchantId: string;
  amount: Santim;
  /** The escrow creator's (the marketplace's) fee out of `amount`, earned as the money is released. */
  fee?: Santim;
  /** The commission rule that computed `fee`, the request naming none; absent when the request named the fee (or there was no rule). */
  commission?: AppliedCommission;
  /**
   * Whether the payee is one of the escrow creator's accounts (a seller, who hears of its own share:
   * libs/callbacks' account-callbacks.ts), as the creator's party relations said at creation. Written on
   * every allocation since it was recorded; an escrow created before reads it from the id (escrow.upcast.ts).
   */
  account?: boolean;
  metadata?: { merchantName?: string; purpose?: string };
}

export interface EscrowCreated {
  type: 'EscrowCreated';
  data: PayableTerms & {
    escrowId: string;
    /** The merchant's own order id: unique per merchant. */
    orderId: string;
    items: EscrowItem[];
    allocations: AllocationTerms[];
    /** Digest of the merchant's request, so an identical retry is told apart from a conflicting reuse of orderId. */
    requestFingerprint: string;
    /** When whatever is still held is released without being asked: an instant, or so many days after payment. */
    autoReleaseAt?: string;
    releaseAfterDays?: number;
  };
}

export interface AllocationReleased {
  type: 'AllocationReleased';
  /** `amount` is gross: `fee` of it goes to the escrow's creator, the rest to the merchant (no fee before fees existed). */
  data: { merchantId: string; amount: Santim; fee?: Santim; releasedAt: string; automatic?: true };
}

/** The merchant moved the automatic release (`null`: there is none any more). */
export interface AutoReleaseRescheduled {
  type: 'AutoReleaseRescheduled';
  data: { autoReleaseAt: string | null; rescheduledAt: string };
}

/** What the named allocations held is frozen: no release, refund or automatic release of it until the dispute is resolved. */
export interface DisputeOpened {
  type: 'DisputeOpened';
  data: { merchantIds: string[]; reason: string; openedAt: string };
}

/**
 * The frozen money of these allocations is split: `release` of each goes to its merchant and `refund`
 * back to the customer, by the AllocationReleased and EscrowRefundRequested that follow in the same
 * append. This event only unfreezes.
 */
export interface DisputeResolved {
  type: 'DisputeResolved';
  data: { resolutions: { merchantId: string; release: Santim; refund: Santim }[]; note?: string; resolvedAt: string };
}

export interface EscrowCancelled {
  type: 'EscrowCancelled';
  data: { reason?: string; cancelledAt: string };
}

/**
 * CANCELLED: all the escrow still held; REQUESTED: part of some allocations, asked by the merchant;
 * PAYMENT_REFUSED: a payment the escrow did not take; REVERSED: money already released to an
 * allocation's merchant, taken back from it (a return after release).
 */
export type RefundReason = 'CANCELLED' | 'PAYMENT_REFUSED' | 'REQUESTED' | 'REVERSED';

/**
 * An escrow's refund names the allocations whose money it returns (none for a refused payment). A
 * cancellation returns all they hold; a REQUESTED refund says how much of each (`allocations`) and
 * carries the merchant's words (`note`). A REVERSED one names the one allocation whose released
 * money it takes back and `feeReturned`, the part of it the escrow's creator gives back from its fees
 * (the allocation's merchant gives the rest from its payable).
 */
export type EscrowRefundRequest = RefundRequest & {
  merchantIds: string[];
  reason: RefundReason;
  allocations?: { merchantId: string; amount: Santim }[];
  note?: string;
  feeReturned?: Santim;
};

/** The escrow's names for the payment lifecycle's facts. */
export const ESCROW_PAYMENT_EVENTS = {
  initiated: 'EscrowPaymentInitiated',
  paid: 'EscrowFunded',
  failed: 'EscrowPaymentFailed',
  expired: 'EscrowExpired',
  refused: 'EscrowPaymentRefused',
  refundRequested: 'EscrowRefundRequested',
  refundFailed: 'EscrowRefundFailed',
  refundCompleted: 'EscrowRefundCompleted',
} as const;

export type EscrowPaymentEvent = NamedPaymentEvent<typeof ESCROW_PAYMENT_EVENTS, EscrowRefundRequest>;

export type EscrowEvent =
  | EscrowCreated
  | AllocationReleased
  | EscrowCancelled
  | AutoReleaseRescheduled
  | DisputeOpened
  | DisputeResolved
  | EscrowPaymentEvent;
