import type { PayoutEvent } from './payout.events';

/**
 * A merchant's books (`payout-books-{merchantId}`): one event per payout or transfer out of its money, per
 * reversal of an allocation released to it, and per closing of it or of one of its accounts, only the last ever read.
 */
export type BooksEvent = Extract<PayoutEvent, { type: 'PayoutBooked' | 'TransferBooked' | 'AccountClosureBooked' | 'AllocationReversalBooked' }>;

/** Where the merchant's next payout's range begins, as its books' last event says; undefined when no payout was booked there. */
export function payoutsThroughOf(last: BooksEvent): string | undefined {
  return (last.type === 'PayoutBooked' ? last.data.through : last.data.payoutsThrough) ?? undefined;
}

/** The books' event of a transfer out of `merchantId`'s money, after `last` (none: the books' first). */
export function transferBooked(merchantId: string, transferId: string, last: BooksEvent | undefined): BooksEvent {
  return { type: 'TransferBooked', data: { merchantId, transferId, payoutsThrough: (last && payoutsThroughOf(last)) ?? null } };
}

/** The books' event of `accountId`'s closing in `merchantId`'s books (the account's own, or its platform's), after `last` (none: the books' first). */
export function closureBooked(merchantId: string, accountId: string, last: BooksEvent | undefined): BooksEvent {
  return { type: 'AccountClosureBooked', data: { merchantId, accountId, payoutsThrough: (last && payoutsThroughOf(last)) ?? null } };
}

/** The books' event of the reversal `refundId` of an allocation of `escrowId` released to `merchantId`, after `last` (none: the books' first). */
export function allocationReversalBooked(merchantId: string, escrowId: string, refundId: string, last: BooksEvent | undefined): BooksEvent {
  return { type: 'AllocationReversalBooked', data: { merchantId, escrowId, refundId, payoutsThrough: (last && payoutsThroughOf(last)) ?? null } };
}
