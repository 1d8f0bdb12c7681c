import { fold } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { santim } from '../shared/money';
import { UnsupportedCurrency } from '../shared/order-terms';
import { OrderNotPayable, PaymentWindowClosed, UnknownRefund } from '../payment/payment.errors';
import {
  AFTER_EXPIRY,
  allocationReleased,
  AMOUNT,
  cancelEscrow,
  completeRefund,
  createEscrow,
  DURING_WINDOW,
  escrowCancelled,
  ESCROW_ID,
  escrowCreated,
  escrowExpired,
  escrowFunded,
  escrowPaymentFailed,
  EXPIRES_AT,
  expireEscrow,
  LATER,
  OWNER,
  paymentRefused,
  recordPayment,
  recordPaymentFailure,
  recordRefundFailure,
  refundCompleted,
  refundFailed,
  refundId,
  refundRequested,
  releaseAllocation,
} from '../testing/escrow.fixtures';
import { given } from '../testing/given';
import type { EscrowCommand } from './escrow.commands';
import { escrowDecider } from './escrow.decider';
import { escrowPaymentStatus, heldAmount } from './escrow.state';
import type { EscrowEvent } from './escrow.events';
import {
  AllocationAlreadyReleased,
  AllocationNotFound,
  AllocationSumMismatch,
  AmountExceedsHeld,
  AllocationNotHeld,
  DuplicateAllocationMerchant,
  EscrowAlreadyCancelled,
  EscrowClosed,
  EscrowFullyReleased,
  EscrowNotFound,
  EscrowNotFunded,
  EscrowNothingHeld,
  EscrowOrderConflict,
} from './escrow.errors';

const escrow = (history: EscrowEvent[]) => given(escrowDecider, history);
const stateAfter = (history: EscrowEvent[]) => fold(escrowDecider, history);
const statuses = (history: EscrowEvent[]) => stateAfter(history).allocations.map((a) => `${a.merchantId}:${a.status}`);

const m1 = { merchantId: 'm-1', amount: santim(10_000) };
const m2 = { merchantId: 'm-2', amount: santim(12_500) };

// Histories every rule below starts from.
const created = escrowCreated();
const funded = [created, escrowFunded()];
const partiallyReleased = [...funded, allocationReleased(m1)];
const fullyReleased = [...partiallyReleased, allocationReleased(m2)];
const cancelledBeforePayment = [created, escrowCancelled()];
const cancelRefund = refundRequested({ n: 1, amount: AMOUNT, merchantIds: ['m-1', 'm-2'], reason: 'CANCELLED', at: LATER });
const cancelledAfterPayment = [...funded, escrowCancelled(), cancelRefund];
const refunded = [...cancelledAfterPayment, refundCompleted(refundId(1))];
const failed = [created, escrowPaymentFailed()];
const expired = [created, escrowExpired()];

describe('Escrow', () => {
  describe('creating', () => {
    it('records the escrow when the allocations add up to the amount', () => {
      escrow([]).when(createEscrow()).then([created]);
    });

    it('starts PENDING with every allocation PENDING', () => {
      const state = stateAfter([created]);
      expect(state.status).toBe('PENDING');
      expect(statuses([created])).toEqual(['m-1:PENDING', 'm-2:PENDING']);
      expect(heldAmount(state)).toBe(0);
    });

    it.each([
      ['less than', [{ merchantId: 'm-1', amount: santim(10_000) }, { merchantId: 'm-2', amount: santim(12_499) }]],
      ['more than', [{ merchantId: 'm-1', amount: santim(10_000) }, { merchantId: 'm-2', amount: santim(12_501) }]],
      ['nothing instead of', []],
    ])('refuses allocations adding up to %s the amount', (_case, allocations) => {
      escrow([]).when(createEscrow(escrowCreated({ allocations }).data)).thenThrows(AllocationSumMismatch);
    });

    it('reports the mismatch in ETB, as a validation error', () => {
      const allocations = [{ merchantId: 'm-1', amount: santim(10_050) }];
      escrow([])
        .when(createEscrow(escrowCreated({ allocations }).data))
        .thenThrows(expect.objectContaining({ code: 'ALLOCATION_SUM_MISMATCH', kind: 'invalid', message: 'The allocations add up to 100.50 ETB but the amount is 225 ETB' }));
    });

    it('refuses a merchant appearing in two allocations', () => {
      const allocations = [{ merchantId: 'm-1', amount: santim(10_000) }, { merchantId: 'm-1', amount: santim(12_500) }];
      escrow([]).when(createEscrow(escrowCreated({ allocations }).data)).thenThrows(DuplicateAllocationMerchant);
    });

    it('refuses a currency other than ETB', () => {
      escrow([]).when(createEscrow(escrowCreated({ currency: 'USD' as 'ETB' }).data)).thenThrows(UnsupportedCurrency);
    });

    it('answers the same request again with nothing new: the escrow it made is the answer', () => {
      escrow([created]).when(createEscrow()).thenNothing();
    });

    it('refuses the same orderId with other details', () => {
      escrow([created]).when(createEscrow(escrowCreated({ requestFingerprint: 'fp-2' }).data)).thenThrows(EscrowOrderConflict);
    });

    it('judges bad input before the history, so a retry gets the same answer as the first request', () => {
      const broken = escrowCreated({ requestFingerprint: 'fp-2', allocations: [{ merchantId: 'm-1', amount: santim(1) }] }).data;
      escrow([]).when(createEscrow(broken)).thenThrows(AllocationSumMismatch);
      escrow([created]).when(createEscrow(broken)).thenThrows(AllocationSumMismatch);
    });
  });

  describe('an escrow that was never created', () => {
    it.each<[string, EscrowCommand]>([
      ['a payment', recordPayment()],
      ['a payment failure', recordPaymentFailure()],
      ['an expiry', expireEscrow(AFTER_EXPIRY)],
      ['a release', releaseAllocation({ merchantId: 'm-1' })],
      ['a cancel', cancelEscrow()],
      ['a refund failure', recordRefundFailure(refundId(1))],
      ['a refund completion', completeRefund(refundId(1))],
    ])('is not found for %s', (_case, command) => {
      escrow([]).when(command).thenThrows(EscrowNotFound);
    });
  });

  describe("another merchant's escrow", () => {
    it.each<[string, EscrowCommand]>([
      ['a release', releaseAllocation({ merchantId: 'm-1', by: 'm-1' })],
      ['a cancel', cancelEscrow({ by: 'someone-else' })],
    ])('is, to that merchant, an escrow that does not exist: %s is not found', (_case, command) => {
      escrow(funded).when(command).thenThrows(EscrowNotFound);
    });
  });

  describe('paying', () => {
    it('holds the funds when the exact amount is paid before expiry', () => {
      escrow([created]).when(recordPayment()).then([escrowFunded()]);
    });

    it('moves the escrow and every allocation to HELD', () => {
      const state = stateAfter(funded);
      expect(state.status).toBe('HELD');
      expect(statuses(funded)).toEqual(['m-1:HELD', 'm-2:HELD']);
      expect(state.payment?.paymentReferenceId).toBe('pay-1');
      expect(heldAmount(state)).toBe(AMOUNT);
    });

    it('changes nothing when the provider repeats a notification already recorded', () => {
      escrow(funded).when(recordPayment()).thenNothing();
      escrow(funded).when(recordPayment({ at: LATER })).thenNothing();
    });

    it('refuses a payment after expiry, expires the escrow and refunds the money', () => {
      escrow([created])
        .when(recordPayment({ at: AFTER_EXPIRY }))
        .then([
          escrowExpired(),
          paymentRefused({ ref: 'pay-1', amount: AMOUNT, reason: 'EXPIRED', at: AFTER_EXPIRY }),
          refundRequested({ n: 1, amount: AMOUNT, reason: 'PAYMENT_REFUSED', at: AFTER_EXPIRY }),
        ]);
    });

    it('treats a payment exactly at expiresAt as late', () => {
      escrow([created])
        .when(recordPayment({ at: EXPIRES_AT }))
        .then([
          escrowExpired(),
          paymentRefused({ ref: 'pay-1', amount: AMOUNT, reason: 'EXPIRED', at: EXPIRES_AT }),
          refundRequested({ n: 1, amount: AMOUNT, reason: 'PAYMENT_REFUSED', at: EXPIRES_AT }),
        ]);
    });

    it('refuses and refunds a wrong amount, leaving the escrow payable', () => {
      const wrong = santim(22_400);
      const history = [
        created,
        paymentRefused({ ref: 'pay-1', amount: wrong, reason: 'AMOUNT_MISMATCH', at: DURING_WINDOW }),
        refundRequested({ n: 1, amount: wrong, reason: 'PAYMENT_REFUSED', at: DURING_WINDOW }),
      ];
      escrow([created]).when(recordPayment({ amount: wrong })).then(history.slice(1));
      expect(stateAfter(history).status).toBe('PENDING');
      escrow(history).when(recordPayment({ ref: 'pay-2' })).then([escrowFunded({ ref: 'pay-2' })]);
    });

    it('refuses and refunds a wrong amount paid after expiry as an expired payment', () => {
      const wrong = santim(22_400);
      escrow([created])
        .when(recordPayment({ amount: wrong, at: AFTER_EXPIRY }))
        .then([
          escrowExpired(),
          paymentRefused({ ref: 'pay-1', amount: wrong, reason: 'EXPIRED', at: AFTER_EXPIRY }),
          refundRequested({ n: 1, amount: wrong, reason: 'PAYMENT_REFUSED', at: AFTER_EXPIRY }),
        ]);
    });

    it('changes nothing when a refused payment is notified again', () => {
      const history = [
        created,
        paymentRefused({ ref: 'pay-1', amount: santim(1), reason: 'AMOUNT_MISMATCH', at: DURING_WINDOW }),
        refundRequested({ n: 1, amount: santim(1), reason: 'PAYMENT_REFUSED', at: DURING_WINDOW }),
      ];
      escrow(history).when(recordPayment({ amount: santim(1) })).thenNothing();
      escrow(history).when(recordPayment()).thenNothing();
    });

    it.each([
      ['cancelled', cancelledBeforePayment, 'CANCELLED'],
      ['failed', failed, 'FAILED'],
      ['expired', expired, 'EXPIRED'],
    ])('refuses and refunds a payment once the escrow is %s', (_case, history, reason) => {
      escrow(history)
        .when(recordPayment({ ref: 'pay-2' }))
        .then([
          paymentRefused({ ref: 'pay-2', amount: AMOUNT, reason, at: DURING_WINDOW }),
          refundRequested({ n: 1, amount: AMOUNT, reason: 'PAYMENT_REFUSED', ref: 'pay-2', at: DURING_WINDOW }),
        ]);
    });

    it('refunds a second, different payment of an escrow already paid, and keeps the funds held', () => {
      const second = [
        paymentRefused({ ref: 'pay-2', amount: AMOUNT, reason: 'HELD', at: DURING_WINDOW }),
        refundRequested({ n: 1, amount: AMOUNT, reason: 'PAYMENT_REFUSED', ref: 'pay-2', at: DURING_WINDOW }),
      ];
      escrow(funded).when(recordPayment({ ref: 'pay-2' })).then(second);
      expect(stateAfter([...funded, ...second]).status).toBe('HELD');
      expect(statuses([...funded, ...second])).toEqual(['m-1:HELD', 'm-2:HELD']);
    });

    it('numbers refunds along the stream, so each refused payment gets its own refund id', () => {
      const history = [
        ...cancelledBeforePayment,
        paymentRefused({ ref: 'pay-2', amount: AMOUNT, reason: 'CANCELLED', at: LATER }),
        refundRequested({ n: 1, amount: AMOUNT, reason: 'PAYMENT_REFUSED', ref: 'pay-2', at: LATER }),
      ];
      escrow(history)
        .when(recordPayment({ ref: 'pay-3', at: LATER }))
        .then([
          paymentRefused({ ref: 'pay-3', amount: AMOUNT, reason: 'CANCELLED', at: LATER }),
          refundRequested({ n: 2, amount: AMOUNT, reason: 'PAYMENT_REFUSED', ref: 'pay-3', at: LATER }),
        ]);
    });
  });

  describe('payment failing', () => {
    it('fails a pending escrow', () => {
      escrow([created]).when(recordPaymentFailure()).then([escrowPaymentFailed()]);
    });

    it('voids every allocation: no money was ever held', () => {
      expect(stateAfter(failed).status).toBe('FAILED');
      expect(statuses(failed)).toEqual(['m-1:VOID', 'm-2:VOID']);
    });

    it.each([
      ['funded', funded],
      ['failed', failed],
      ['expired', expired],
      ['cancelled', cancelledBeforePayment],
    ])('changes nothing once the escrow is %s', (_case, history) => {
      escrow(history).when(recordPaymentFailure({ ref: 'pay-9' })).thenNothing();
    });
  });

  describe('expiring', () => {
    it('does nothing before expiresAt', () => {
      escrow([created]).when(expireEscrow(DURING_WINDOW)).thenNothing();
      escrow([created]).when(expireEscrow('2030-01-01T10:29:59.999Z')).thenNothing();
    });

    it('expires an unpaid escrow from expiresAt on, at expiresAt', () => {
      escrow([created]).when(expireEscrow(EXPIRES_AT)).then([escrowExpired()]);
      escrow([created]).when(expireEscrow(AFTER_EXPIRY)).then([escrowExpired()]);
    });

    it('voids every allocation', () => {
      expect(stateAfter(expired).status).toBe('EXPIRED');
      expect(statuses(expired)).toEqual(['m-1:VOID', 'm-2:VOID']);
    });

    it.each([
      ['paid', funded],
      ['partially released', partiallyReleased],
      ['cancelled', cancelledBeforePayment],
      ['failed', failed],
      ['already expired', expired],
    ])('does nothing once the escrow is %s', (_case, history) => {
      escrow(history).when(expireEscrow(AFTER_EXPIRY)).thenNothing();
    });
  });

  describe('releasing an allocation', () => {
    it("pays out that merchant's share of the held funds", () => {
      escrow(funded).when(releaseAllocation({ merchantId: 'm-2' })).then([allocationReleased(m2)]);
    });

    it('is PARTIALLY_RELEASED after the first release and RELEASED after the last', () => {
      expect(stateAfter(partiallyReleased).status).toBe('PARTIALLY_RELEASED');
      expect(statuses(partiallyReleased)).toEqual(['m-1:RELEASED', 'm-2:HELD']);
      expect(heldAmount(stateAfter(partiallyReleased))).toBe(12_500);
      escrow(partiallyReleased).when(releaseAllocation({ merchantId: 'm-2' })).then([allocationReleased(m2)]);
      expect(stateAfter(fullyReleased).status).toBe('RELEASED');
      expect(statuses(fullyReleased)).toEqual(['m-1:RELEASED', 'm-2:RELEASED']);
    });

    it('releases a single-allocation escrow straight to RELEASED', () => {
      const single = escrowCreated({ allocations: [{ merchantId: 'm-1', amount: AMOUNT }] });
      const history = [single, escrowFunded(), allocationReleased({ merchantId: 'm-1', amount: AMOUNT })];
      expect(stateAfter(history).status).toBe('RELEASED');
    });

    it('refuses before the escrow is paid', () => {
      escrow([created]).when(releaseAllocation({ merchantId: 'm-1' })).thenThrows(EscrowNotFunded);
    });

    it('refuses a merchant without an allocation', () => {
      escrow(funded).when(releaseAllocation({ merchantId: 'm-9' })).thenThrows(AllocationNotFound);
      escrow(fullyReleased).when(releaseAllocation({ merchantId: 'm-9' })).thenThrows(AllocationNotFound);
    });

    it('refuses to release the same allocation twice', () => {
      escrow(partiallyReleased).when(releaseAllocation({ merchantId: 'm-1' })).thenThrows(AllocationAlreadyReleased);
      escrow(fullyReleased).when(releaseAllocation({ merchantId: 'm-2' })).thenThrows(AllocationAlreadyReleased);
    });

    it.each([
      ['cancelled before payment', cancelledBeforePayment],
      ['cancelled after payment (refund pending)', cancelledAfterPayment],
      ['cancelled and refunded', refunded],
    ])('refuses after the escrow was %s', (_case, history) => {
      escrow(history).when(releaseAllocation({ merchantId: 'm-1' })).thenThrows(EscrowAlreadyCancelled);
    });

    it('still tells an allocation released before the cancel apart from one refunded by it', () => {
      const history = [
        ...partiallyReleased,
        escrowCancelled(),
        refundRequested({ n: 1, amount: m2.amount, merchantIds: ['m-2'], reason: 'CANCELLED', at: LATER }),
      ];
      escrow(history).when(releaseAllocation({ merchantId: 'm-1' })).thenThrows(AllocationAlreadyReleased);
      escrow(history).when(releaseAllocation({ merchantId: 'm-2' })).thenThrows(EscrowAlreadyCancelled);
      escrow(history).when(releaseAllocation({ merchantId: 'm-9' })).thenThrows(AllocationNotFound);
    });

    it.each([
      ['failed', failed],
      ['expired', expired],
    ])('refuses once the escrow has %s: it never held money', (_case, history) => {
      escrow(history).when(releaseAllocation({ merchantId: 'm-1' })).thenThrows(EscrowClosed);
    });
  });

  describe('releasing part of an allocation', () => {
    const part = (merchantId: string, amount: number) => allocationReleased({ merchantId, amount: santim(amount) });
    const releaseOf = (releases: { merchantId: string; amount?: number }[]): EscrowCommand => ({
      type: 'ReleaseFunds',
      data: { escrowId: ESCROW_ID, merchantId: OWNER, releases: releases.map((r) => ({ merchantId: r.merchantId, amount: r.amount === undefined ? undefined : santim(r.amount) })), at: LATER },
    });

    it('releases the amount asked for, and the allocation is PARTIALLY_RELEASED holding the rest', () => {
      escrow(funded).when(releaseAllocation({ merchantId: 'm-1', amount: santim(2_500) })).then([part('m-1', 2_500)]);
      const state = stateAfter([...funded, part('m-1', 2_500)]);
      expect(state.status).toBe('PARTIALLY_RELEASED');
      expect(state.allocations[0]).toMatchObject({ status: 'PARTIALLY_RELEASED', released: 2_500, refunded: 0 });
      expect(heldAmount(state)).toBe(7_500 + 12_500);
      expect(state.releases).toEqual([{ merchantId: 'm-1', amount: 2_500, fee: 0, releasedAt: LATER }]);
    });

    it('without an amount releases what is still held, and the allocation is RELEASED', () => {
      escrow([...funded, part('m-1', 2_500)]).when(releaseAllocation({ merchantId: 'm-1' })).then([part('m-1', 7_500)]);
      expect(statuses([...funded, part('m-1', 2_500), part('m-1', 7_500)])).toEqual(['m-1:RELEASED', 'm-2:HELD']);
    });

    it('releasing exactly what is held completes the allocation', () => {
      expect(statuses([...funded, part('m-1', 2_500), part('m-1', 7_500), part('m-2', 12_500)])).toEqual(['m-1:RELEASED', 'm-2:RELEASED']);
      expect(stateAfter([...funded, part('m-1', 2_500), part('m-1', 7_500), part('m-2', 12_500)]).status).toBe('RELEASED');
    });

    it('refuses more than the allocation still holds, to the santim', () => {
      escrow(funded).when(releaseAllocation({ merchantId: 'm-1', amount: santim(10_001) })).thenThrows(AmountExceedsHeld);
      escrow([...funded, part('m-1', 2_500)]).when(releaseAllocation({ merchantId: 'm-1', amount: santim(7_501) })).thenThrows(AmountExceedsHeld);
    });

    it('releases several allocations in one command, or none of them when one is refused', () => {
      escrow(funded).when(releaseOf([{ merchantId: 'm-1', amount: 1_000 }, { merchantId: 'm-2' }])).then([part('m-1', 1_000), part('m-2', 12_500)]);
      escrow(funded).when(releaseOf([{ merchantId: 'm-1', amount: 1_000 }, { merchantId: 'm-2', amount: 12_501 }])).thenThrows(AmountExceedsHeld);
      escrow(funded).when(releaseOf([{ merchantId: 'm-1', amount: 1_000 }, { merchantId: 'm-1', amount: 1_000 }])).thenThrows(DuplicateAllocationMerchant);
    });

    it('a cancel after a partial release refunds only what is still held, allocation by allocation', () => {
      const history = [...funded, part('m-1', 2_500)];
      escrow(history)
        .when(cancelEscrow())
        .then([escrowCancelled(), refundRequested({ n: 1, amount: santim(7_500 + 12_500), merchantIds: ['m-1', 'm-2'], reason: 'CANCELLED', at: LATER })]);
      const cancelled = stateAfter([...history, escrowCancelled(), refundRequested({ n: 1, amount: santim(20_000), merchantIds: ['m-1', 'm-2'], reason: 'CANCELLED', at: LATER })]);
      expect(cancelled.allocations.map(({ released, refunded }) => ({ released, refunded }))).toEqual([
        { released: 2_500, refunded: 7_500 },
        { released: 0, refunded: 12_500 },
      ]);
      expect(heldAmount(cancelled)).toBe(0);
    });
  });

  describe('cancelling', () => {
    it('cancels an unpaid escrow, with nothing to refund', () => {
      escrow([created]).when(cancelEscrow()).then([escrowCancelled()]);
      expect(stateAfter(cancelledBeforePayment).status).toBe('CANCELLED');
      expect(statuses(cancelledBeforePayment)).toEqual(['m-1:VOID', 'm-2:VOID']);
    });

    it('accepts a cancel without a reason', () => {
      escrow([created])
        .when({ type: 'CancelEscrow', data: { escrowId: ESCROW_ID, merchantId: OWNER, at: LATER } })
        .then([{ type: 'EscrowCancelled', data: { reason: undefined, cancelledAt: LATER } }]);
    });

    it('refunds every held allocation of a paid escrow', () => {
      escrow(funded).when(cancelEscrow()).then([escrowCancelled(), cancelRefund]);
      expect(stateAfter(cancelledAfterPayment).status).toBe('REFUND_PENDING');
      expect(statuses(cancelledAfterPayment)).toEqual(['m-1:REFUND_PENDING', 'm-2:REFUND_PENDING']);
      expect(heldAmount(stateAfter(cancelledAfterPayment))).toBe(0);
    });

    it('after a partial release refunds only the allocations still held', () => {
      const history = [
        ...partiallyReleased,
        escrowCancelled(),
        refundRequested({ n: 1, amount: m2.amount, merchantIds: ['m-2'], reason: 'CANCELLED', at: LATER }),
      ];
      escrow(partiallyReleased).when(cancelEscrow()).then(history.slice(partiallyReleased.length));
      expect(stateAfter(history).status).toBe('REFUND_PENDING');
      expect(statuses(history)).toEqual(['m-1:RELEASED', 'm-2:REFUND_PENDING']);
    });

    it('refunds against the payment that funded the escrow, numbered after earlier refunds', () => {
      const history = [
        created,
        paymentRefused({ ref: 'pay-0', amount: santim(5), reason: 'AMOUNT_MISMATCH', at: DURING_WINDOW }),
        refundRequested({ n: 1, amount: santim(5), reason: 'PAYMENT_REFUSED', ref: 'pay-0', at: DURING_WINDOW }),
        escrowFunded({ ref: 'pay-1' }),
      ];
      escrow(history)
        .when(cancelEscrow())
        .then([escrowCancelled(), refundRequested({ n: 2, amount: AMOUNT, merchantIds: ['m-1', 'm-2'], reason: 'CANCELLED', ref: 'pay-1', at: LATER })]);
    });

    it('refuses to cancel an escrow whose allocations were all released', () => {
      escrow(fullyReleased).when(cancelEscrow()).thenThrows(EscrowFullyReleased);
    });

    it.each([
      ['before payment', cancelledBeforePayment],
      ['with its refund pending', cancelledAfterPayment],
      ['and refunded', refunded],
    ])('refuses to cancel twice: already cancelled %s', (_case, history) => {
      escrow(history).when(cancelEscrow()).thenThrows(EscrowAlreadyCancelled);
    });

    it.each([
      ['failed', failed],
      ['expired', expired],
    ])('refuses to cancel once the escrow has %s', (_case, history) => {
      escrow(history).when(cancelEscrow()).thenThrows(EscrowClosed);
    });
  });

  describe('refunding part of the escrow on the merchant\'s request', () => {
    const asked = (n: number, shares: [string, number][], note = 'the courier could not deliver'): EscrowEvent => ({
      type: 'EscrowRefundRequested',
      data: {
        refundId: refundId(n),
        amount: santim(shares.reduce((sum, [, amount]) => sum + amount, 0)),
        merchantIds: shares.map(([merchantId]) => merchantId),
        reason: 'REQUESTED',
        allocations: shares.map(([merchantId, amount]) => ({ merchantId, amount: santim(amount) })),
        note,
        paymentReferenceId: 'pay-1',
        requestedAt: LATER,
      },
    });
    const refundOf = (refunds: { merchantId: string; amount?: number }[]): EscrowCommand => ({
      type: 'RefundFunds',
      data: {
        escrowId: ESCROW_ID,
        merchantId: OWNER,
        refunds: refunds.map((r) => ({ merchantId: r.merchantId, amount: r.amount === undefined ? undefined : santim(r.amount) })),
        note: 'the courier could not deliver',
        at: LATER,
      },
    });

    it('refunds part of one allocation through the provider; the rest stays held, the others untouched', () => {
      escrow(funded).when(refundOf([{ merchantId: 'm-2', amount: 2_500 }])).then([asked(1, [['m-2', 2_500]])]);
      const state = stateAfter([...funded, asked(1, [['m-2', 2_500]])]);
      expect(state.status).toBe('HELD');
      expect(state.allocations.map((a) => ({ status: a.status, held: heldAmount({ ...state, allocations: [a] }), refunded: a.refunded }))).toEqual([
        { status: 'HELD', held: 10_000, refunded: 0 },
        { status: 'HELD', held: 10_000, refunded: 2_500 },
      ]);
    });

    it('refunds all an allocation holds without an amount: it waits for the provider, then is REFUNDED; the escrow keeps the rest', () => {
      escrow(funded).when(refundOf([{ merchantId: 'm-2' }])).then([asked(1, [['m-2', 12_500]])]);
      const requested = [...funded, asked(1, [['m-2', 12_500]])];
      expect(statuses(requested)).toEqual(['m-1:HELD', 'm-2:REFUND_PENDING']);
      expect(stateAfter(requested).status).toBe('HELD');
      expect(statuses([...requested, refundCompleted(refundId(1))])).toEqual(['m-1:HELD', 'm-2:REFUNDED']);
      // Releasing the rest leaves nothing held: the escrow is done once its refund is confirmed, part released and part refunded.
      const done = [...requested, allocationReleased(m1)];
      expect(stateAfter(done).status).toBe('REFUND_PENDING');
      expect(stateAfter([...done, refundCompleted(refundId(1))]).status).toBe('PARTIALLY_REFUNDED');
    });

    it('refuses more than is held, an allocation refunded in full, and one released in full', () => {
      escrow(funded).when(refundOf([{ merchantId: 'm-1', amount: 10_001 }])).thenThrows(AmountExceedsHeld);
      escrow([...funded, asked(1, [['m-2', 12_500]])]).when(refundOf([{ merchantId: 'm-2', amount: 1 }])).thenThrows(AllocationNotHeld);
      escrow(partiallyReleased).when(refundOf([{ merchantId: 'm-1' }])).thenThrows(AllocationAlreadyReleased);
      escrow([created]).when(refundOf([{ merchantId: 'm-1' }])).thenThrows(EscrowNotFunded);
      escrow(cancelledAfterPayment).when(refundOf([{ merchantId: 'm-1' }])).thenThrows(EscrowAlreadyCancelled);
    });

    it('releasing what is left after a refund completes the allocation: RELEASED, and the escrow PARTIALLY_REFUNDED, since its money went both ways', () => {
      const history = [...funded, asked(1, [['m-1', 4_000]]), allocationReleased({ merchantId: 'm-1', amount: santim(6_000) })];
      expect(statuses(history)).toEqual(['m-1:RELEASED', 'm-2:HELD']);
      escrow(history).when(refundOf([{ merchantId: 'm-1' }])).thenThrows(AllocationAlreadyReleased);
      expect(stateAfter([...history, allocationReleased(m2)]).status).toBe('REFUND_PENDING');
      expect(stateAfter([...history, allocationReleased(m2), refundCompleted(refundId(1))]).status).toBe('PARTIALLY_REFUNDED');
    });

    it('a cancel afterwards refunds only what is still held', () => {
      const history = [...funded, asked(1, [['m-1', 4_000]])];
      escrow(history)
        .when(cancelEscrow())
        .then([escrowCancelled(), refundRequested({ n: 2, amount: santim(6_000 + 12_500), merchantIds: ['m-1', 'm-2'], reason: 'CANCELLED', at: LATER })]);
    });

    it('an escrow emptied by refunds it asked for cannot be cancelled: there is nothing held', () => {
      const emptied = [...funded, asked(1, [['m-1', 10_000], ['m-2', 12_500]])];
      expect(stateAfter(emptied).status).toBe('REFUND_PENDING');
      escrow(emptied).when(cancelEscrow()).thenThrows(EscrowNothingHeld);
    });
  });

  describe('refunds', () => {
    it('records a failed refund without changing the escrow: the refund stays pending for a retry', () => {
      escrow(cancelledAfterPayment).when(recordRefundFailure(refundId(1))).then([refundFailed(refundId(1))]);
      expect(stateAfter([...cancelledAfterPayment, refundFailed(refundId(1))])).toEqual(stateAfter(cancelledAfterPayment));
      escrow([...cancelledAfterPayment, refundFailed(refundId(1))]).when(completeRefund(refundId(1))).then([refundCompleted(refundId(1))]);
    });

    it('completes a cancel refund: the escrow and its refunded allocations are REFUNDED', () => {
      escrow(cancelledAfterPayment).when(completeRefund(refundId(1))).then([refundCompleted(refundId(1))]);
      const state = stateAfter(refunded);
      expect(state.status).toBe('REFUNDED');
      expect(statuses(refunded)).toEqual(['m-1:REFUNDED', 'm-2:REFUNDED']);
      expect(state.payment?.refunds).toEqual([expect.objectContaining({ refundId: refundId(1), status: 'COMPLETED' })]);
    });

    it('leaves a released allocation RELEASED when the rest is refunded: the escrow PARTIALLY_REFUNDED, its payment still PAID', () => {
      const history = [
        ...partiallyReleased,
        escrowCancelled(),
        refundRequested({ n: 1, amount: m2.amount, merchantIds: ['m-2'], reason: 'CANCELLED', at: LATER }),
        refundCompleted(refundId(1)),
      ];
      expect(stateAfter(history.slice(0, -1)).status).toBe('REFUND_PENDING');
      expect(stateAfter(history).status).toBe('PARTIALLY_REFUNDED');
      expect(escrowPaymentStatus(stateAfter(history))).toBe('PAID');
      expect(statuses(history)).toEqual(['m-1:RELEASED', 'm-2:REFUNDED']);
      // All of it back to the customer is REFUNDED, to verify as well.
      expect(escrowPaymentStatus(stateAfter(refunded))).toBe('REFUNDED');
    });

    it('changes nothing when a completed refund is completed again, or fails late', () => {
      escrow(refunded).when(completeRefund(refundId(1))).thenNothing();
      escrow(refunded).when(recordRefundFailure(refundId(1))).thenNothing();
    });

    it('refuses to settle a refund that was never requested', () => {
      escrow(cancelledAfterPayment).when(completeRefund('esc-1-refund-2')).thenThrows(UnknownRefund);
      escrow(cancelledAfterPayment).when(recordRefundFailure('nope')).thenThrows(UnknownRefund);
      escrow(funded).when(completeRefund(refundId(1))).thenThrows(UnknownRefund);
    });

    it('completing the refund of a refused payment leaves the escrow as it was', () => {
      const history = [
        ...funded,
        paymentRefused({ ref: 'pay-2', amount: AMOUNT, reason: 'HELD', at: DURING_WINDOW }),
        refundRequested({ n: 1, amount: AMOUNT, reason: 'PAYMENT_REFUSED', ref: 'pay-2', at: DURING_WINDOW }),
      ];
      escrow(history).when(completeRefund(refundId(1))).then([refundCompleted(refundId(1))]);
      const after = stateAfter([...history, refundCompleted(refundId(1))]);
      expect(after.status).toBe('HELD');
      expect(heldAmount(after)).toBe(AMOUNT);
      escrow([...history, refundCompleted(refundId(1))]).when(releaseAllocation({ merchantId: 'm-1' })).then([allocationReleased(m1)]);
    });

    it('completing the refund of a payment to a cancelled escrow keeps it CANCELLED', () => {
      const history = [
        ...cancelledBeforePayment,
        paymentRefused({ ref: 'pay-2', amount: AMOUNT, reason: 'CANCELLED', at: LATER }),
        refundRequested({ n: 1, amount: AMOUNT, reason: 'PAYMENT_REFUSED', ref: 'pay-2', at: LATER }),
        refundCompleted(refundId(1)),
      ];
      expect(stateAfter(history).status).toBe('CANCELLED');
    });
  });

  describe('errors carry a stable code and an HTTP-free kind', () => {
    it.each<[DomainError, string, string]>([
      [new EscrowNotFound('e'), 'ABC_001', 'not_found'],
      [new EscrowOrderConflict('o'), 'ESCROW_ORDER_CONFLICT', 'conflict'],
      [new EscrowNotFunded(), 'ESCROW_NOT_FUNDED', 'conflict'],
      [new EscrowClosed('FAILED'), 'ESCROW_CLOSED', 'conflict'],
      [new EscrowAlreadyCancelled(), 'ESCROW_ALREADY_CANCELLED', 'conflict'],
      [new EscrowFullyReleased(), 'ESCROW_ALREADY_RELEASED', 'conflict'],
      [new AllocationNotFound('m'), 'ALLOCATION_NOT_FOUND', 'conflict'],
      [new AllocationAlreadyReleased('m'), 'ALLOCATION_ALREADY_RELEASED', 'conflict'],
      [new AllocationSumMismatch('1', '2'), 'ALLOCATION_SUM_MISMATCH', 'invalid'],
      [new DuplicateAllocationMerchant('m'), 'DUPLICATE_ALLOCATION_MERCHANT', 'invalid'],
      [new UnknownRefund('r'), 'REFUND_NOT_FOUND', 'not_found'],
    ])('%p', (error, code, kind) => {
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code, kind, name: error.constructor.name });
    });
  });
});

describe('payment initiation', () => {
  const attempt = { attemptId: 'att-1', provider: 'sandbox', providerReference: 'SBX-1', otpRequired: false };

  it('records a payment attempt while the escrow waits for payment', () => {
    given(escrowDecider, [escrowCreated()])
      .when({ type: 'InitiatePayment', data: { ...attempt, at: DURING_WINDOW } })
      .then([{ type: 'EscrowPaymentInitiated', data: { ...attempt, initiatedAt: DURING_WINDOW } }]);
  });

  it('refuses a payment attempt once the window has closed', () => {
    given(escrowDecider, [escrowCreated()])
      .when({ type: 'InitiatePayment', data: { ...attempt, at: AFTER_EXPIRY } })
      .thenThrows(PaymentWindowClosed);
  });

  it('refuses a payment attempt on a paid escrow', () => {
    given(escrowDecider, [escrowCreated(), escrowFunded()])
      .when({ type: 'InitiatePayment', data: { ...attempt, at: DURING_WINDOW } })
      .thenThrows(OrderNotPayable);
  });
});
