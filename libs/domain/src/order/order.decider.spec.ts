import fc from 'fast-check';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { santim } from '../shared/money';
import { UnsupportedCurrency } from '../shared/order-terms';
import { given } from '../testing/given';
import { orderDecider, type OrderCommand } from './order.decider';
import type { OrderCreated, OrderEvent } from './order.events';
import { AmountExceedsRefundable, OrderAlreadyRefunded, OrderFeeExceedsAmount, OrderNotFound, OrderNotPaid } from './order.errors';

const DURING_WINDOW = '2030-01-01T10:10:00.000Z';
const AFTER_EXPIRY = '2030-01-01T10:45:00.000Z';
const AMOUNT = santim(15_050);

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
    expiresAt: '2030-01-01T10:30:00.000Z',
    createdAt: '2030-01-01T10:00:00.000Z',
    ...overrides,
  },
});

const created = orderCreated();
const recordPayment = (at = DURING_WINDOW): OrderCommand => ({ type: 'RecordPayment', data: { externalReferenceId: 'ext-1', paymentType: 'telebirr', amount: AMOUNT, at } });
const order = (history: OrderEvent[]) => given(orderDecider, history);
const stateAfter = (history: OrderEvent[]) => fold(orderDecider, history);

/** An order is a payment and nothing more: the lifecycle's own rules are in payment.decider.spec.ts. */
describe('Plain order', () => {
  it('records the order, PENDING, and answers a repeat of the same request with nothing new', () => {
    order([]).when({ type: 'CreateOrder', data: created.data }).then([created]);
    expect(stateAfter([created]).status).toBe('PENDING');
    order([created]).when({ type: 'CreateOrder', data: created.data }).thenNothing();
  });

  it('refuses a currency other than ETB', () => {
    order([]).when({ type: 'CreateOrder', data: orderCreated({ currency: 'USD' as 'ETB' }).data }).thenThrows(UnsupportedCurrency);
  });

  it('is not found for a payment command before it exists', () => {
    order([]).when(recordPayment()).thenThrows(OrderNotFound);
  });

  it('writes the payment lifecycle under its own names, and shows the payment status as its own', () => {
    order([created]).when(recordPayment()).then([{ type: 'OrderPaid', data: { externalReferenceId: 'ext-1', paymentType: 'telebirr', amount: AMOUNT, paidAt: DURING_WINDOW } }]);
    order([created])
      .when(recordPayment(AFTER_EXPIRY))
      .then([
        { type: 'OrderExpired', data: { expiredAt: created.data.expiresAt } },
        { type: 'OrderPaymentRefused', data: { externalReferenceId: 'ext-1', amount: AMOUNT, reason: 'EXPIRED', receivedAt: AFTER_EXPIRY } },
        { type: 'OrderRefundRequested', data: { refundId: 'ord-1-refund-1', amount: AMOUNT, paymentReferenceId: 'ext-1', requestedAt: AFTER_EXPIRY } },
      ]);
    order([created]).when(recordPayment(AFTER_EXPIRY)).thenState({ status: 'EXPIRED' });
  });

  describe('refunding a paid order on its merchant\'s request', () => {
    const paid: OrderEvent = { type: 'OrderPaid', data: { externalReferenceId: 'ext-1', paymentType: 'telebirr', amount: AMOUNT, paidAt: DURING_WINDOW } };
    const refund = (amount?: number, merchantId = 'm-1'): OrderCommand => ({
      type: 'RefundPayment',
      data: { orderId: 'ord-1', merchantId, amount: amount === undefined ? undefined : santim(amount), note: 'out of stock', at: AFTER_EXPIRY },
    });
    const requested = (n: number, amount: number): OrderEvent => ({
      type: 'OrderRefundRequested',
      data: { refundId: `ord-1-refund-${n}`, amount: santim(amount), paymentReferenceId: 'ext-1', requestedAt: AFTER_EXPIRY, reason: 'REQUESTED', note: 'out of stock' },
    });
    const completed = (n: number): OrderEvent => ({ type: 'OrderRefundCompleted', data: { refundId: `ord-1-refund-${n}`, externalReferenceId: `r-${n}`, completedAt: AFTER_EXPIRY } });

    it('refunds part of the payment; the order stays PAID and shows what was refunded', () => {
      order([created, paid]).when(refund(5_000)).then([requested(1, 5_000)]);
      expect(stateAfter([created, paid, requested(1, 5_000)])).toMatchObject({ status: 'PAID', refunded: 5_000 });
    });

    it('without an amount refunds all that is left: REFUND_PENDING until the provider confirms, then REFUNDED', () => {
      order([created, paid, requested(1, 5_000)]).when(refund()).then([requested(2, 10_050)]);
      const all = [created, paid, requested(1, 5_000), requested(2, 10_050)];
      expect(stateAfter(all).status).toBe('REFUND_PENDING');
      expect(stateAfter([...all, completed(2)]).status).toBe('REFUND_PENDING');
      expect(stateAfter([...all, completed(2), completed(1)]).status).toBe('REFUNDED');
    });

    it('refuses more than is left, an order refunded in full, an unpaid order, and another merchant\'s', () => {
      order([created, paid, requested(1, 5_000)]).when(refund(10_051)).thenThrows(AmountExceedsRefundable);
      order([created, paid, requested(1, 15_050)]).when(refund(1)).thenThrows(OrderAlreadyRefunded);
      order([created]).when(refund()).thenThrows(OrderNotPaid);
      order([created, paid]).when(refund(1, 'm-2')).thenThrows(OrderNotFound);
    });

    it('a refused payment\'s refund is not one the merchant asked for: it does not count as refunded', () => {
      order([created]).when(recordPayment(AFTER_EXPIRY)).thenState({ status: 'EXPIRED', refunded: 0, requestedRefunds: [] });
    });

    it('never refunds more than was paid, whatever amounts are asked in whatever order', () => {
      fc.assert(
        fc.property(fc.array(fc.option(fc.integer({ min: 1, max: 20_000 })), { maxLength: 12 }), fc.array(fc.boolean(), { maxLength: 12 }), (asks, completions) => {
          const history: OrderEvent[] = [created, paid];
          asks.forEach((amount, i) => {
            try {
              history.push(...orderDecider.decide(refund(amount ?? undefined), stateAfter(history)));
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
            }
            const state = stateAfter(history);
            const pending = state.payment!.refunds.filter((r) => r.status === 'PENDING');
            if (completions[i] && pending.length > 0) history.push(...orderDecider.decide({ type: 'CompleteRefund', data: { refundId: pending[0].refundId, externalReferenceId: `x-${i}`, at: AFTER_EXPIRY } }, state));
          });
          const state = stateAfter(history);
          const asked = state.payment!.refunds.reduce((sum, r) => sum + r.amount, 0);
          expect(state.refunded).toBe(asked);
          expect(state.refunded).toBeLessThanOrEqual(AMOUNT);
          const allConfirmed = state.payment!.refunds.every((r) => r.status === 'COMPLETED');
          expect(state.status).toBe(state.refunded < AMOUNT ? 'PAID' : allConfirmed ? 'REFUNDED' : 'REFUND_PENDING');
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('a platform fee on the order', () => {
    const withFee = (fee: number, amount: number = AMOUNT) => orderCreated({ amount: santim(amount), fee: santim(fee) });
    const paidFor = (amount: number): OrderEvent => ({ type: 'OrderPaid', data: { externalReferenceId: 'ext-1', paymentType: 'telebirr', amount: santim(amount), paidAt: DURING_WINDOW } });
    const refund = (amount?: number): OrderCommand => ({
      type: 'RefundPayment',
      data: { orderId: 'ord-1', merchantId: 'm-1', amount: amount === undefined ? undefined : santim(amount), note: 'late', at: AFTER_EXPIRY },
    });

    it('is at most the amount', () => {
      order([]).when({ type: 'CreateOrder', data: withFee(15_051).data }).thenThrows(OrderFeeExceedsAmount);
      order([]).when({ type: 'CreateOrder', data: withFee(15_050).data }).then([withFee(15_050)]);
    });

    it('a refund takes back the fee\'s share of what it returns, rounded down, and all of it with the last santim', () => {
      const paidWithFee = [withFee(1_000, 3_001), paidFor(3_001)];
      const requestedWithFee = (n: number, amount: number, fee: number): OrderEvent => ({
        type: 'OrderRefundRequested',
        data: { refundId: `ord-1-refund-${n}`, amount: santim(amount), paymentReferenceId: 'ext-1', requestedAt: AFTER_EXPIRY, reason: 'REQUESTED', note: 'late', fee: santim(fee) },
      });
      order(paidWithFee).when(refund(1_000)).then([requestedWithFee(1, 1_000, 333)]);
      order([...paidWithFee, requestedWithFee(1, 1_000, 333)]).when(refund()).then([requestedWithFee(2, 2_001, 667)]);
      order([...paidWithFee, requestedWithFee(1, 1_000, 333)]).when(refund()).thenState({ refunded: 3_001, feeRefunded: 1_000 });
    });

    it('never creates or loses a santim: the fee parts of any split add up to the fee\'s share of the refunded, the fee once all is refunded', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 100_000_000_000 }).chain((amount) => fc.tuple(fc.constant(amount), fc.integer({ min: 0, max: amount }))),
          fc.array(fc.option(fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 10 }),
          fc.boolean(),
          ([amount, fee], parts, finish) => {
            const history: OrderEvent[] = [withFee(fee, amount), paidFor(amount)];
            const ask = (value?: number) => {
              try {
                history.push(...orderDecider.decide(refund(value), stateAfter(history)));
              } catch (error) {
                if (!(error instanceof DomainError)) throw error;
              }
            };
            for (const part of parts) ask(part === null ? undefined : Math.max(1, Math.floor((amount - stateAfter(history).refunded) * part)));
            if (finish) ask();
            const state = stateAfter(history);
            const feeParts = history.flatMap((e) => (e.type === 'OrderRefundRequested' ? [e.data.fee ?? 0] : []));
            const amounts = history.flatMap((e) => (e.type === 'OrderRefundRequested' ? [e.data.amount] : []));
            feeParts.forEach((part, i) => expect(part).toBeLessThanOrEqual(amounts[i]));
            expect(feeParts.reduce((a, b) => a + b, 0)).toBe(state.feeRefunded);
            expect(BigInt(state.feeRefunded)).toBe((BigInt(fee) * BigInt(state.refunded)) / BigInt(amount));
            if (state.refunded === amount) expect(state.feeRefunded).toBe(fee);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});
