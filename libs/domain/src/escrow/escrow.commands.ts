import type { PaymentCommand } from '../payment/payment.decider';
import type { Santim } from '../shared/money';
import type { EscrowCreated } from './escrow.events';

/** Part of an allocation to release or refund; without an amount, all it still holds. */
export interface ReleaseRequest {
  merchantId: string;
  amount?: Santim;
}

/** How a disputed allocation's frozen money is split; without `merchantId`, the escrow's only disputed allocation. */
export interface DisputeSplit {
  merchantId?: string;
  release: Santim;
  refund: Santim;
}

/** `merchantId` is the merchant asking: another merchant's escrow is, to it, an escrow that does not exist. */
export type EscrowCommand =
  | { type: 'CreateEscrow'; data: EscrowCreated['data'] }
  | { type: 'ReleaseFunds'; data: { escrowId: string; merchantId: string; releases: ReleaseRequest[]; at: string } }
  | { type: 'CancelEscrow'; data: { escrowId: string; merchantId: string; reason?: string; at: string } }
  | { type: 'RefundFunds'; data: { escrowId: string; merchantId: string; refunds: ReleaseRequest[]; note: string; at: string } }
  | { type: 'RescheduleAutoRelease'; data: { escrowId: string; merchantId: string; autoReleaseAt: string | null; at: string } }
  /** The scheduler's, at the automatic release instant: releases whatever is held and not frozen. */
  | { type: 'ReleaseDue'; data: { escrowId: string; at: string } }
  /** `allocation`: the merchant whose allocation is disputed; without it, every allocation that holds money. */
  | { type: 'OpenDispute'; data: { escrowId: string; merchantId: string; allocation?: string; reason: string; at: string } }
  | { type: 'ResolveDispute'; data: { escrowId: string; merchantId: string; resolutions: DisputeSplit[]; note?: string; at: string } }
  /**
   * A return after release: `amount` (all released and not yet reversed, without it) of `allocation`'s
   * released money goes back to the customer; `refundFee`: the escrow's creator gives back its fee's share.
   * `payeeClosed`: the allocation's payee is an account its stream says is closed, read at the payee's
   * books with what it still has available (libs/payments/src/escrows/reverse-allocation-at-books.ts).
   */
  | {
      type: 'ReverseAllocation';
      data: { escrowId: string; merchantId: string; allocation: string; amount?: Santim; reason: string; refundFee: boolean; at: string; payeeClosed?: { available: number } };
    }
  | PaymentCommand;

/** The data of one kind of escrow command. */
export type EscrowCommandData<Type extends EscrowCommand['type']> = Extract<EscrowCommand, { type: Type }>['data'];
