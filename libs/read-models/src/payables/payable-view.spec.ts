import type { EscrowOutline, OrderOutline } from '@app/domain';
import fc from 'fast-check';
import { escrowView, orderView } from './payable-view';

/**
 * The documents as payable-view.ts first built them, by spreading parts: the view writes the same JSON
 * key for key (the document is served as built, and the inline row carries it), however it builds it.
 */
function commonAsSpread({ terms, payment }: OrderOutline | EscrowOutline) {
  const attempt = payment.lastAttempt;
  return {
    merchantId: terms.merchantId,
    amount: terms.amount,
    currency: terms.currency,
    description: terms.description,
    customer: terms.customer,
    items: terms.items,
    callbackUrl: terms.callbackUrl,
    redirectUrl: terms.redirectUrl,
    metadata: terms.metadata,
    expiresAt: terms.expiresAt,
    createdAt: terms.createdAt,
    paidAt: payment.paidAt,
    paymentReferenceId: payment.paymentReferenceId,
    failureReason: payment.failureReason,
    lastAttempt: attempt && { attemptId: attempt.attemptId, otpRequired: attempt.otpRequired, initiatedAt: attempt.initiatedAt },
    ...(terms.testClockId ? { testClockId: terms.testClockId } : {}),
  };
}

function orderViewAsSpread(order: OrderOutline) {
  return {
    ...commonAsSpread(order),
    id: order.terms.orderId,
    kind: 'order',
    status: order.status,
    paymentStatus: order.status,
    refunded: order.refunded,
    ...(order.terms.fee ? { fee: order.terms.fee, feeRefunded: order.feeRefunded } : {}),
  };
}

function escrowViewAsSpread(escrow: EscrowOutline) {
  return {
    ...commonAsSpread(escrow),
    id: escrow.terms.escrowId,
    kind: 'escrow',
    merchantOrderId: escrow.terms.orderId,
    status: escrow.status,
    paymentStatus: escrow.paymentStatus,
    allocations: escrow.allocations.map((a) => ({
      merchantId: a.merchantId,
      amount: a.amount,
      ...(a.metadata ? { metadata: a.metadata } : {}),
      status: a.status,
      held: a.held,
      released: a.released,
      refunded: a.refunded,
      fee: a.fee ?? 0,
      ...(a.commission ? { commission: a.commission } : {}),
      feeEarned: a.feeEarned,
      frozen: a.frozen,
      ...(a.dispute ? { dispute: a.dispute } : {}),
      ...(a.reversed > 0 ? { reversed: a.reversed, feeReturned: a.feeReturned } : {}),
    })),
    releases: escrow.releases,
    ...(escrow.autoReleaseAt ? { autoReleaseAt: escrow.autoReleaseAt } : {}),
  };
}

const money = fc.integer({ min: 0, max: 5_000_000 });
const text = fc.string({ maxLength: 8 });
const at = fc.constantFrom('2030-01-01T10:00:00.000Z', '2030-01-02T10:00:00.000Z');
/** Optional fields present or absent, as the outlines have them (absent, or present and undefined). */
const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });

const terms = fc.record({
  merchantId: text,
  amount: money,
  currency: fc.constant('ETB'),
  description: maybe(text),
  customer: fc.record({ id: text, name: text }),
  items: fc.array(fc.record({ productId: text, quantity: fc.nat(3) }), { maxLength: 2 }),
  callbackUrl: maybe(text),
  redirectUrl: maybe(text),
  metadata: maybe(fc.dictionary(text, text, { maxKeys: 2 })),
  expiresAt: at,
  createdAt: at,
  testClockId: maybe(text),
  orderId: text,
  escrowId: text,
  fee: maybe(money),
});

const payment = fc.record({
  status: text,
  paidAt: maybe(at),
  paymentReferenceId: maybe(text),
  failureReason: maybe(text),
  lastAttempt: maybe(fc.record({ attemptId: text, otpRequired: fc.boolean(), initiatedAt: at, provider: text })),
  refunds: fc.constant([]),
});

const allocation = fc.record(
  {
    merchantId: text,
    amount: money,
    fee: money,
    metadata: fc.record({ merchantName: text }),
    commission: fc.record({ ruleId: text, percent: fc.nat(20) }),
    account: fc.boolean(),
    status: text,
    held: money,
    released: money,
    refunded: money,
    feeEarned: money,
    frozen: money,
    reversed: fc.oneof(fc.constant(0), money),
    feeReturned: money,
    dispute: fc.record({ reason: text, openedAt: at }),
  },
  { requiredKeys: ['merchantId', 'amount', 'account', 'status', 'held', 'released', 'refunded', 'feeEarned', 'frozen', 'reversed', 'feeReturned'] },
);

const escrowOutline = fc.record(
  {
    terms,
    status: text,
    paymentStatus: text,
    held: money,
    frozen: money,
    payment,
    allocations: fc.array(allocation, { maxLength: 3 }),
    releases: fc.array(fc.record({ merchantId: text, amount: money, fee: money, releasedAt: at }), { maxLength: 2 }),
    refunds: fc.constant([]),
    autoReleaseAt: at,
  },
  { requiredKeys: ['terms', 'status', 'paymentStatus', 'held', 'frozen', 'payment', 'allocations', 'releases', 'refunds'] },
) as unknown as fc.Arbitrary<EscrowOutline>;

const orderOutline = fc.record({ terms, status: text, payment, refunded: money, feeRefunded: money, requestedRefunds: fc.constant([]) }) as unknown as fc.Arbitrary<OrderOutline>;

describe('Payable documents', () => {
  it('an escrow document is the same JSON, key for key, as when it was built by spreading its parts', () => {
    fc.assert(fc.property(escrowOutline, (escrow) => expect(JSON.stringify(escrowView(escrow))).toBe(JSON.stringify(escrowViewAsSpread(escrow)))), { numRuns: 500 });
  });

  it('an order document is the same JSON, key for key, as when it was built by spreading its parts', () => {
    fc.assert(fc.property(orderOutline, (order) => expect(JSON.stringify(orderView(order))).toBe(JSON.stringify(orderViewAsSpread(order)))), { numRuns: 500 });
  });
});
