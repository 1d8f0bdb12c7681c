import { AmountExceedsRefundable, fingerprint, OrderFeeExceedsAmount, orderDecider, orderIdFor, OrderNotFound, OrderNotPaid, type Santim, santim, streams } from '@app/domain';
import { CallbackUrlRefused } from '@app/callbacks';
import type { AppConfig } from '@app/config';
import { type EventMetadata, START } from '@app/event-store';
import { Clocks, CommandRunner, systemClock } from '@app/infrastructure';
import { InMemoryEventStore } from '../../../event-store/src/testing/in-memory-event-store';
import { CreateOrderCommand } from './create-order/create-order.command';
import type { CreateOrderRequest } from './create-order/create-order.request';
import { CreateOrderHandler } from './create-order/create-order.handler';
import { RefundOrderCommand } from './refund-order/refund-order.command';
import { RefundOrderHandler } from './refund-order/refund-order.handler';

const merchant = { merchantId: 'm-1', idSalt: 'salt-1', mode: 'test' as const };
const metadata: EventMetadata = { correlationId: 'req-1', actor: { type: 'merchant', id: 'm-1' } };

/** A request as the controller hands it on, validated: 250.75 ETB, 5 of it the platform's fee. */
function orderRequest(overrides: Partial<CreateOrderRequest> = {}): CreateOrderRequest {
  return {
    amount: 250.75,
    fee: 5,
    description: 'Order 77',
    currency: 'ETB',
    customerName: 'Almaz Tesfaye',
    customerPhoneNumber: '+251 911 234 567',
    items: [{ productId: 'sku-9', item_name: 'Injera basket', quantity: 1, unit_price: 250.75 }],
    ...overrides,
  } as CreateOrderRequest;
}

/**
 * The order command handlers on the in-memory event store: what each builds from its request and
 * where it lands, in milliseconds and without a database (the rules: order.decider.spec.ts).
 */
describe('order command handlers', () => {
  let store: InMemoryEventStore;
  let runner: CommandRunner;

  beforeEach(() => {
    store = new InMemoryEventStore();
    runner = new CommandRunner(store);
  });

  const create = (request = orderRequest(), idempotencyKey?: string) => new CreateOrderHandler(runner, { callbackAllowPrivateUrls: false } as AppConfig, new Clocks(store, systemClock)).execute(new CreateOrderCommand(merchant, request, metadata, idempotencyKey));
  const refund = (orderId: string, amount?: Santim, by = merchant) => new RefundOrderHandler(runner, new Clocks(store, systemClock)).execute(new RefundOrderCommand(by, orderId, amount, 'out of stock', metadata));
  const events = async (orderId: string) => store.readStream(streams.order(orderId));

  /** An order created by the request and paid, as the payment flow records a payment. */
  async function paid(): Promise<string> {
    const { terms } = await create();
    await runner.run(streams.order(terms.orderId), orderDecider, { type: 'RecordPayment', data: { externalReferenceId: 'pay-1', paymentType: 'telebirr', amount: terms.amount, at: new Date().toISOString() } }, metadata);
    return terms.orderId;
  }

  describe('CreateOrderHandler', () => {
    it('refuses a callbackURL on a private address when it is set, writing nothing', async () => {
      await expect(create(orderRequest({ callbackURL: 'http://10.0.0.7/callbacks' }))).rejects.toThrow(CallbackUrlRefused);
      expect(await store.readAll(START, 100)).toEqual([]);
    });

    it('records the order, in santim, with the phone in E.164', async () => {
      const order = await create();
      const [created] = await events(order.terms.orderId);
      expect(created).toMatchObject({
        type: 'OrderCreated',
        metadata,
        data: {
          merchantId: 'm-1',
          amount: santim(25_075),
          fee: santim(500),
          description: 'Order 77',
          customer: { name: 'Almaz Tesfaye', phone: '+251911234567' },
          items: [{ productId: 'sku-9', itemName: 'Injera basket', quantity: 1, unitPrice: santim(25_075) }],
        },
      });
      expect(order.status).toBe('PENDING');
    });

    it('names the order by its Idempotency-Key and body, so the same request again finds the order it made', async () => {
      const first = await create(orderRequest(), 'key-1');
      const orderId = orderIdFor(merchant.idSalt, 'key-1', fingerprint(orderRequest()));
      expect(first.terms.orderId).toBe(orderId);
      expect(await create(orderRequest(), 'key-1')).toEqual(first);
      expect((await events(orderId)).map((e) => e.type)).toEqual(['OrderCreated']);
    });

    it('makes a new order for each request without a key', async () => {
      const [one, two] = [await create(), await create()];
      expect(one.terms.orderId).not.toBe(two.terms.orderId);
    });

    it('refuses a fee above the amount, writing nothing', async () => {
      await expect(create(orderRequest({ fee: 300 }))).rejects.toThrow(OrderFeeExceedsAmount);
      expect(await store.readAll(START, 10)).toEqual([]);
    });
  });

  describe('RefundOrderHandler', () => {
    it("asks for the refund of part of a paid order, with the merchant's words and the fee it takes back", async () => {
      const orderId = await paid();
      const { order, at } = await refund(orderId, santim(10_030));
      const requested = (await events(orderId)).at(-1)!;
      expect(requested).toMatchObject({ type: 'OrderRefundRequested', data: { amount: santim(10_030), reason: 'REQUESTED', note: 'out of stock', fee: santim(200), paymentReferenceId: 'pay-1' } });
      expect(order).toMatchObject({ status: 'PAID', refunded: santim(10_030), feeRefunded: santim(200) });
      expect(at).toEqual(requested.recordedAt);
    });

    it('refunds all that is left when no amount is given', async () => {
      const orderId = await paid();
      const { order } = await refund(orderId);
      expect(order).toMatchObject({ status: 'REFUND_PENDING', refunded: santim(25_075), feeRefunded: santim(500) });
    });

    it("is refused before payment, above what is left, and on another merchant's order, writing nothing", async () => {
      const { terms } = await create();
      await expect(refund(terms.orderId)).rejects.toThrow(OrderNotPaid);
      const orderId = await paid();
      await expect(refund(orderId, santim(30_000))).rejects.toThrow(AmountExceedsRefundable);
      await expect(refund(orderId, undefined, { merchantId: 'm-2', idSalt: 'salt-2', mode: 'test' as const })).rejects.toThrow(OrderNotFound);
      expect((await events(orderId)).map((e) => e.type)).toEqual(['OrderCreated', 'OrderPaid']);
    });
  });
});
