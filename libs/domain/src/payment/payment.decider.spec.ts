import type { Decider } from '../shared/decider';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { santim, type Santim } from '../shared/money';
import { given } from '../testing/given';
import { decidePayment, evolvePayment, openPayment, type PaymentCommand, type PaymentState } from './payment.decider';
import { OrderNotPayable, PaymentWindowClosed, UnknownRefund } from './payment.errors';
import type { PaymentFact } from './payment.events';

const DURING_WINDOW = '2030-01-01T10:10:00.000Z';
const EXPIRES_AT = '2030-01-01T10:30:00.000Z';
const AFTER_EXPIRY = '2030-01-01T10:45:00.000Z';
const LATER = '2030-01-01T11:00:00.000Z';
const AMOUNT = santim(15_050);
const refundId = (n: number) => `pay-1-refund-${n}`;

/** The lifecycle alone, as a decider over its facts, on a payable that shows its payment's own status. */
const payment: Decider<PaymentCommand, PaymentFact, PaymentState> = {
  initialState: () => openPayment({ payableId: 'pay-1', amount: AMOUNT, expiresAt: EXPIRES_AT }),
  evolve: evolvePayment,
  decide: (command, state) => decidePayment(command, state, state.status),
};

// Commands
const initiate = (at = DURING_WINDOW): PaymentCommand => ({ type: 'InitiatePayment', data: { attemptId: 'att-1', provider: 'sandbox', providerReference: 'SBX-1', otpRequired: false, at } });
const recordPayment = ({ ref = 'ext-1', amount = AMOUNT, at = DURING_WINDOW }: { ref?: string; amount?: Santim; at?: string } = {}): PaymentCommand => ({
  type: 'RecordPayment',
  data: { externalReferenceId: ref, paymentType: 'telebirr', amount, at },
});
const recordPaymentFailure = (ref = 'ext-1'): PaymentCommand => ({ type: 'RecordPaymentFailure', data: { externalReferenceId: ref, reason: 'DECLINED', at: DURING_WINDOW } });
const expire = (at: string): PaymentCommand => ({ type: 'ExpirePayment', data: { at } });
const recordRefundFailure = (id: string): PaymentCommand => ({ type: 'RecordRefundFailure', data: { refundId: id, reason: 'PROVIDER_DOWN', at: LATER } });
const completeRefund = (id: string): PaymentCommand => ({ type: 'CompleteRefund', data: { refundId: id, externalReferenceId: `provider-${id}`, at: LATER } });

// Facts
const initiated: PaymentFact = { kind: 'initiated', data: { attemptId: 'att-1', provider: 'sandbox', providerReference: 'SBX-1', otpRequired: false, initiatedAt: DURING_WINDOW } };
const paid = (ref = 'ext-1'): PaymentFact => ({ kind: 'paid', data: { externalReferenceId: ref, paymentType: 'telebirr', amount: AMOUNT, paidAt: DURING_WINDOW } });
const failed = (ref = 'ext-1'): PaymentFact => ({ kind: 'failed', data: { externalReferenceId: ref, reason: 'DECLINED', failedAt: DURING_WINDOW } });
const expired: PaymentFact = { kind: 'expired', data: { expiredAt: EXPIRES_AT } };
const refused = (ref: string, amount: Santim, reason: string, at: string): PaymentFact => ({ kind: 'refused', data: { externalReferenceId: ref, amount, reason, receivedAt: at } });
const refundRequested = (n: number, ref: string, amount: Santim, at: string): PaymentFact => ({
  kind: 'refundRequested',
  data: { refundId: refundId(n), amount, paymentReferenceId: ref, requestedAt: at },
});
const refundFailed = (id: string): PaymentFact => ({ kind: 'refundFailed', data: { refundId: id, reason: 'PROVIDER_DOWN', failedAt: LATER } });
const refundCompleted = (id: string): PaymentFact => ({ kind: 'refundCompleted', data: { refundId: id, externalReferenceId: `provider-${id}`, completedAt: LATER } });

const when = (history: PaymentFact[]) => given(payment, history);
const stateAfter = (history: PaymentFact[]) => fold(payment, history);

const afterPaid = [paid()];
const afterFailed = [failed()];
const afterExpired = [expired];
const refusedLate = [expired, refused('ext-1', AMOUNT, 'EXPIRED', AFTER_EXPIRY), refundRequested(1, 'ext-1', AMOUNT, AFTER_EXPIRY)];

describe('The payment lifecycle (orders and escrows alike)', () => {
  describe('starting a payment', () => {
    it('records the attempt while the payable waits for its payment and its window is open', () => {
      when([]).when(initiate()).then([initiated]);
      expect(stateAfter([initiated]).lastAttempt).toMatchObject({ attemptId: 'att-1', initiatedAt: DURING_WINDOW });
    });

    it('refuses to start one once the window has closed, or once the payable no longer waits', () => {
      when([]).when(initiate(EXPIRES_AT)).thenThrows(PaymentWindowClosed);
      when(afterPaid).when(initiate()).thenThrows(OrderNotPayable);
      when(afterExpired).when(initiate()).thenThrows(OrderNotPayable);
    });
  });

  describe('paying', () => {
    it('is PAID when the exact amount is paid before expiry', () => {
      when([]).when(recordPayment()).then([paid()]);
      expect(stateAfter(afterPaid)).toMatchObject({ status: 'PAID', paymentReferenceId: 'ext-1' });
    });

    it('changes nothing when the provider repeats a report already recorded', () => {
      when(afterPaid).when(recordPayment()).thenNothing();
      when(refusedLate).when(recordPayment({ at: LATER })).thenNothing();
    });

    it('refuses a payment after expiry, expires the payable and refunds the money', () => {
      when([]).when(recordPayment({ at: AFTER_EXPIRY })).then(refusedLate);
      expect(stateAfter(refusedLate).status).toBe('EXPIRED');
    });

    it('treats a payment exactly at expiresAt as late', () => {
      when([])
        .when(recordPayment({ at: EXPIRES_AT }))
        .then([expired, refused('ext-1', AMOUNT, 'EXPIRED', EXPIRES_AT), refundRequested(1, 'ext-1', AMOUNT, EXPIRES_AT)]);
    });

    it('refuses and refunds a wrong amount, leaving the payable payable', () => {
      const wrong = santim(15_000);
      const history = [refused('ext-1', wrong, 'AMOUNT_MISMATCH', DURING_WINDOW), refundRequested(1, 'ext-1', wrong, DURING_WINDOW)];
      when([]).when(recordPayment({ amount: wrong })).then(history);
      expect(stateAfter(history).status).toBe('PENDING');
      when(history).when(recordPayment({ ref: 'ext-2' })).then([paid('ext-2')]);
    });

    it('refuses a payment in another currency without refunding it in birr, leaving the payable payable', () => {
      const inDollars: PaymentCommand = { type: 'RecordPayment', data: { externalReferenceId: 'ext-1', paymentType: 'telebirr', amount: AMOUNT, currency: 'USD', at: DURING_WINDOW } };
      const history: PaymentFact[] = [{ kind: 'refused', data: { externalReferenceId: 'ext-1', amount: AMOUNT, currency: 'USD', reason: 'CURRENCY_MISMATCH', receivedAt: DURING_WINDOW } }];
      when([]).when(inDollars).then(history);
      expect(stateAfter(history)).toMatchObject({ status: 'PENDING', refunds: [] });
      when(history).when(inDollars).then([]);
      when([]).when({ ...inDollars, data: { ...inDollars.data, currency: 'ETB' } } as PaymentCommand).then([paid()]);
    });

    it('refuses a wrong amount paid after expiry as an expired payment', () => {
      const wrong = santim(15_000);
      when([])
        .when(recordPayment({ amount: wrong, at: AFTER_EXPIRY }))
        .then([expired, refused('ext-1', wrong, 'EXPIRED', AFTER_EXPIRY), refundRequested(1, 'ext-1', wrong, AFTER_EXPIRY)]);
    });

    it.each([
      ['already paid', afterPaid, 'PAID'],
      ['failed', afterFailed, 'FAILED'],
      ['expired', afterExpired, 'EXPIRED'],
    ])('refuses and refunds another payment once the payable is %s, naming the status it shows', (_case, history, reason) => {
      when(history)
        .when(recordPayment({ ref: 'ext-2' }))
        .then([refused('ext-2', AMOUNT, reason, DURING_WINDOW), refundRequested(1, 'ext-2', AMOUNT, DURING_WINDOW)]);
    });

    it('numbers refunds along the stream', () => {
      when(refusedLate)
        .when(recordPayment({ ref: 'ext-2', at: LATER }))
        .then([refused('ext-2', AMOUNT, 'EXPIRED', LATER), refundRequested(2, 'ext-2', AMOUNT, LATER)]);
    });
  });

  describe('payment failing', () => {
    it('fails a pending payment', () => {
      when([]).when(recordPaymentFailure()).then([failed()]);
      expect(stateAfter(afterFailed)).toMatchObject({ status: 'FAILED', failureReason: 'DECLINED' });
    });

    it.each([
      ['paid', afterPaid],
      ['failed', afterFailed],
      ['expired', afterExpired],
    ])('changes nothing once %s', (_case, history) => {
      when(history).when(recordPaymentFailure('ext-9')).thenNothing();
    });
  });

  describe('expiring', () => {
    it('does nothing before expiresAt', () => {
      when([]).when(expire(DURING_WINDOW)).thenNothing();
    });

    it('expires an unpaid payable from expiresAt on', () => {
      when([]).when(expire(EXPIRES_AT)).then([expired]);
      when([]).when(expire(AFTER_EXPIRY)).then([expired]);
    });

    it.each([
      ['paid', afterPaid],
      ['failed', afterFailed],
      ['expired', afterExpired],
    ])('does nothing once %s', (_case, history) => {
      when(history).when(expire(LATER)).thenNothing();
    });
  });

  describe('refunds', () => {
    it('records a failed refund without changing the payment: it stays pending for a retry', () => {
      when(refusedLate).when(recordRefundFailure(refundId(1))).then([refundFailed(refundId(1))]);
      expect(stateAfter([...refusedLate, refundFailed(refundId(1))])).toEqual(stateAfter(refusedLate));
      when([...refusedLate, refundFailed(refundId(1))]).when(completeRefund(refundId(1))).then([refundCompleted(refundId(1))]);
    });

    it('completes a refund, leaving the payment status as it was', () => {
      when(refusedLate).when(completeRefund(refundId(1))).then([refundCompleted(refundId(1))]);
      const state = stateAfter([...refusedLate, refundCompleted(refundId(1))]);
      expect(state.status).toBe('EXPIRED');
      expect(state.refunds).toEqual([{ refundId: refundId(1), amount: AMOUNT, paymentReferenceId: 'ext-1', requestedAt: AFTER_EXPIRY, status: 'COMPLETED' }]);
    });

    it('changes nothing when a completed refund is completed again, or fails late', () => {
      const history = [...refusedLate, refundCompleted(refundId(1))];
      when(history).when(completeRefund(refundId(1))).thenNothing();
      when(history).when(recordRefundFailure(refundId(1))).thenNothing();
    });

    it('refuses to settle a refund that was never requested', () => {
      when(refusedLate).when(completeRefund(refundId(2))).thenThrows(UnknownRefund);
      when(afterPaid).when(recordRefundFailure(refundId(1))).thenThrows(UnknownRefund);
    });
  });

  describe('errors carry a stable code and an HTTP-free kind', () => {
    it.each<[DomainError, string, string]>([
      [new PaymentWindowClosed(), 'ORDER_EXPIRED', 'conflict'],
      [new OrderNotPayable('PAID'), 'ORDER_NOT_PAYABLE', 'conflict'],
      [new UnknownRefund('r'), 'REFUND_NOT_FOUND', 'not_found'],
    ])('%p', (error, code, kind) => {
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code, kind });
    });
  });
});
