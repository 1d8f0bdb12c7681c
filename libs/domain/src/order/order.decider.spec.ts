import { fold } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { santim, type Santim } from '../shared/money';
import { UnsupportedCurrency } from '../shared/order-terms';
import { given } from '../testing/given';
import { OrderAlreadyExists, orderDecider, OrderNotFound, OrderRefundNotFound, type OrderCommand } from './order.decider';
import type { OrderCreated, OrderEvent } from './order.events';

const DURING_WINDOW = '2030-01-01T10:10:00.000Z';
const EXPIRES_AT = '2030-01-01T10:30:00.000Z';
const AFTER_EXPIRY = '2030-01-01T10:45:00.000Z';
const LATER = '2030-01-01T11:00:00.000Z';
const AMOUNT = santim(15_050);
const refundId = (n: number) => `ord-1-refund-${n}`;

const orderCreated = (overrides: Partial<OrderCreated['data']> = {}): OrderCreated => ({
  type: 'OrderCreated',
  data: {
    orderId: 'ord-1',
    merchantId: 'm-1',
    amount: AMOUNT,
    currency: 'ETB',
    description: 'Two coffees',
    customer: { id: 'c-1', name: 'Abebe Kebede', phone: '+251911234567' },
    items: [{ itemName: 'Coffee', quantity: 2, unitPrice: santim(7_525) }],
    expiresAt: EXPIRES_AT,
    createdAt: '2030-01-01T10:00:00.000Z',
    ...overrides,
  },
});

// Commands
const createOrder = (data = orderCreated().data): OrderCommand => ({ type: 'CreateOrder', data });
const recordPayment = ({ ref = 'pay-1', amount = AMOUNT, at = DURING_WINDOW }: { ref?: string; amount?: Santim; at?: string } = {}): OrderCommand => ({
  type: 'RecordOrderPayment',
  data: { externalReferenceId: ref, paymentType: 'telebirr', amount, at },
});
const recordPaymentFailure = (ref = 'pay-1'): OrderCommand => ({ type: 'RecordOrderPaymentFailure', data: { externalReferenceId: ref, reason: 'DECLINED', at: DURING_WINDOW } });
const expireOrder = (at: string): OrderCommand => ({ type: 'ExpireOrder', data: { at } });
const recordRefundFailure = (id: string): OrderCommand => ({ type: 'RecordOrderRefundFailure', data: { refundId: id, reason: 'PROVIDER_DOWN', at: LATER } });
const completeRefund = (id: string): OrderCommand => ({ type: 'CompleteOrderRefund', data: { refundId: id, externalReferenceId: `provider-${id}`, at: LATER } });

// Events
const created = orderCreated();
const orderPaid = (ref = 'pay-1'): OrderEvent => ({ type: 'OrderPaid', data: { externalReferenceId: ref, paymentType: 'telebirr', amount: AMOUNT, paidAt: DURING_WINDOW } });
const orderPaymentFailed = (ref = 'pay-1'): OrderEvent => ({ type: 'OrderPaymentFailed', data: { externalReferenceId: ref, reason: 'DECLINED', failedAt: DURING_WINDOW } });
const orderExpired: OrderEvent = { type: 'OrderExpired', data: { expiredAt: EXPIRES_AT } };
const paymentRefused = (ref: string, amount: Santim, reason: string, at: string): OrderEvent => ({
  type: 'OrderPaymentRefused',
  data: { externalReferenceId: ref, amount, reason, receivedAt: at },
});
const refundRequested = (n: number, ref: string, amount: Santim, at: string): OrderEvent => ({
  type: 'OrderRefundRequested',
  data: { refundId: refundId(n), amount, paymentReferenceId: ref, requestedAt: at },
});
const refundFailed = (id: string): OrderEvent => ({ type: 'OrderRefundFailed', data: { refundId: id, reason: 'PROVIDER_DOWN', failedAt: LATER } });
const refundCompleted = (id: string): OrderEvent => ({ type: 'OrderRefundCompleted', data: { refundId: id, externalReferenceId: `provider-${id}`, completedAt: LATER } });

const order = (history: OrderEvent[]) => given(orderDecider, history);
const stateAfter = (history: OrderEvent[]) => fold(orderDecider, history);

const paid = [created, orderPaid()];
const failed = [created, orderPaymentFailed()];
const expired = [created, orderExpired];
const refusedLate = [created, orderExpired, paymentRefused('pay-1', AMOUNT, 'EXPIRED', AFTER_EXPIRY), refundRequested(1, 'pay-1', AMOUNT, AFTER_EXPIRY)];

describe('Plain order', () => {
  describe('creating', () => {
    it('records the order, PENDING', () => {
      order([]).when(createOrder()).then([created]);
      expect(stateAfter([created]).status).toBe('PENDING');
    });

    it('refuses a currency other than ETB', () => {
      order([]).when(createOrder(orderCreated({ currency: 'USD' as 'ETB' }).data)).thenThrows(UnsupportedCurrency);
    });

    it('refuses to create an order that already exists', () => {
      order([created]).when(createOrder()).thenThrows(OrderAlreadyExists);
    });
  });

  describe('an order that was never created', () => {
    it.each<[string, OrderCommand]>([
      ['a payment', recordPayment()],
      ['a payment failure', recordPaymentFailure()],
      ['an expiry', expireOrder(AFTER_EXPIRY)],
      ['a refund failure', recordRefundFailure(refundId(1))],
      ['a refund completion', completeRefund(refundId(1))],
    ])('is not found for %s', (_case, command) => {
      order([]).when(command).thenThrows(OrderNotFound);
    });
  });

  describe('paying', () => {
    it('is PAID when the exact amount is paid before expiry', () => {
      order([created]).when(recordPayment()).then([orderPaid()]);
      expect(stateAfter(paid)).toMatchObject({ status: 'PAID', paymentReferenceId: 'pay-1' });
    });

    it('changes nothing when the provider repeats a notification already recorded', () => {
      order(paid).when(recordPayment()).thenNothing();
      order(refusedLate).when(recordPayment({ at: LATER })).thenNothing();
    });

    it('refuses a payment after expiry, expires the order and refunds the money', () => {
      order([created]).when(recordPayment({ at: AFTER_EXPIRY })).then(refusedLate.slice(1));
      expect(stateAfter(refusedLate).status).toBe('EXPIRED');
    });

    it('treats a payment exactly at expiresAt as late', () => {
      order([created])
        .when(recordPayment({ at: EXPIRES_AT }))
        .then([orderExpired, paymentRefused('pay-1', AMOUNT, 'EXPIRED', EXPIRES_AT), refundRequested(1, 'pay-1', AMOUNT, EXPIRES_AT)]);
    });

    it('refuses and refunds a wrong amount, leaving the order payable', () => {
      const wrong = santim(15_000);
      const history = [created, paymentRefused('pay-1', wrong, 'AMOUNT_MISMATCH', DURING_WINDOW), refundRequested(1, 'pay-1', wrong, DURING_WINDOW)];
      order([created]).when(recordPayment({ amount: wrong })).then(history.slice(1));
      expect(stateAfter(history).status).toBe('PENDING');
      order(history).when(recordPayment({ ref: 'pay-2' })).then([orderPaid('pay-2')]);
    });

    it('refuses a wrong amount paid after expiry as an expired payment', () => {
      const wrong = santim(15_000);
      order([created])
        .when(recordPayment({ amount: wrong, at: AFTER_EXPIRY }))
        .then([orderExpired, paymentRefused('pay-1', wrong, 'EXPIRED', AFTER_EXPIRY), refundRequested(1, 'pay-1', wrong, AFTER_EXPIRY)]);
    });

    it.each([
      ['already paid', paid, 'PAID'],
      ['failed', failed, 'FAILED'],
      ['expired', expired, 'EXPIRED'],
    ])('refuses and refunds another payment once the order is %s', (_case, history, reason) => {
      order(history)
        .when(recordPayment({ ref: 'pay-2' }))
        .then([paymentRefused('pay-2', AMOUNT, reason, DURING_WINDOW), refundRequested(1, 'pay-2', AMOUNT, DURING_WINDOW)]);
    });

    it('numbers refunds along the stream', () => {
      order(refusedLate)
        .when(recordPayment({ ref: 'pay-2', at: LATER }))
        .then([paymentRefused('pay-2', AMOUNT, 'EXPIRED', LATER), refundRequested(2, 'pay-2', AMOUNT, LATER)]);
    });
  });

  describe('payment failing', () => {
    it('fails a pending order', () => {
      order([created]).when(recordPaymentFailure()).then([orderPaymentFailed()]);
      expect(stateAfter(failed).status).toBe('FAILED');
    });

    it.each([
      ['paid', paid],
      ['failed', failed],
      ['expired', expired],
    ])('changes nothing on a %s order', (_case, history) => {
      order(history).when(recordPaymentFailure('pay-9')).thenNothing();
    });
  });

  describe('expiring', () => {
    it('does nothing before expiresAt', () => {
      order([created]).when(expireOrder(DURING_WINDOW)).thenNothing();
    });

    it('expires an unpaid order from expiresAt on', () => {
      order([created]).when(expireOrder(EXPIRES_AT)).then([orderExpired]);
      order([created]).when(expireOrder(AFTER_EXPIRY)).then([orderExpired]);
      expect(stateAfter(expired).status).toBe('EXPIRED');
    });

    it.each([
      ['paid', paid],
      ['failed', failed],
      ['expired', expired],
    ])('does nothing to a %s order', (_case, history) => {
      order(history).when(expireOrder(LATER)).thenNothing();
    });
  });

  describe('refunds', () => {
    it('records a failed refund without changing the order: it stays pending for a retry', () => {
      order(refusedLate).when(recordRefundFailure(refundId(1))).then([refundFailed(refundId(1))]);
      expect(stateAfter([...refusedLate, refundFailed(refundId(1))])).toEqual(stateAfter(refusedLate));
      order([...refusedLate, refundFailed(refundId(1))]).when(completeRefund(refundId(1))).then([refundCompleted(refundId(1))]);
    });

    it('completes a refund, leaving the payment status as it was', () => {
      order(refusedLate).when(completeRefund(refundId(1))).then([refundCompleted(refundId(1))]);
      const state = stateAfter([...refusedLate, refundCompleted(refundId(1))]);
      expect(state.status).toBe('EXPIRED');
      expect(state.refunds).toEqual([{ refundId: refundId(1), amount: AMOUNT, paymentReferenceId: 'pay-1', status: 'COMPLETED' }]);
    });

    it('changes nothing when a completed refund is completed again, or fails late', () => {
      const history = [...refusedLate, refundCompleted(refundId(1))];
      order(history).when(completeRefund(refundId(1))).thenNothing();
      order(history).when(recordRefundFailure(refundId(1))).thenNothing();
    });

    it('refuses to settle a refund that was never requested', () => {
      order(refusedLate).when(completeRefund(refundId(2))).thenThrows(OrderRefundNotFound);
      order(paid).when(recordRefundFailure(refundId(1))).thenThrows(OrderRefundNotFound);
    });
  });

  describe('errors carry a stable code and an HTTP-free kind', () => {
    it.each<[DomainError, string, string]>([
      [new OrderNotFound('o'), 'ABC_001', 'not_found'],
      [new OrderAlreadyExists('o'), 'ORDER_ALREADY_EXISTS', 'conflict'],
      [new OrderRefundNotFound('r'), 'REFUND_NOT_FOUND', 'not_found'],
    ])('%p', (error, code, kind) => {
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code, kind });
    });
  });
});
