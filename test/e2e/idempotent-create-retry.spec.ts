import { type RunningApp, startApp } from '../support/app';
import { orderRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';

let running: RunningApp;
let merchant: TestMerchant;

beforeAll(async () => {
  running = await startApp();
  merchant = await registerMerchant(running.baseUrl);
});

afterAll(() => running?.close());

const eventsOfType = async (type: string) =>
  (await running.schema!.client.query<{ count: number }>(`SELECT count(*)::int AS count FROM events WHERE event_type = $1`, [type]))[0].count;

/**
 * Found by the chaos run: an order was written, then the database connection was cut before the
 * response was kept for its Idempotency-Key; the 500 freed the key and the client's retry under the
 * same key created a second order.
 */
describe('creating an order again under the same Idempotency-Key after its first answer was lost', () => {
  const create = (key: string, body: unknown) =>
    call(running.baseUrl, 'POST', '/v1/trdp/order', { body, headers: { 'x-api-secret': merchant.apiSecret, 'idempotency-key': key } });

  it('answers with the order the first attempt created, and creates no second one', async () => {
    const body = orderRequest();
    const ordersBefore = await eventsOfType('OrderCreated');
    const first = await create('order-key-1', body);
    expect(first.status).toBe(201);
    // What a 5xx after the write leaves behind: the order exists, the key is free again.
    await running.schema!.client.query(`DELETE FROM idempotency_keys`);

    const retry = await create('order-key-1', body);
    expect(retry.status).toBe(201);
    expect(retry.body.data.order_id).toBe(first.body.data.order_id);
    expect(await eventsOfType('OrderCreated')).toBe(ordersBefore + 1);

    const otherKey = await create('order-key-2', body);
    expect(otherKey.status).toBe(201);
    expect(otherKey.body.data.order_id).not.toBe(first.body.data.order_id);
  });
});

/**
 * Found by the chaos run: the checkout's Pay recorded its attempt, then the database connection was
 * cut while the response was read; the 500 freed the key and the retry under the same key pushed the
 * customer's phone a second time.
 */
describe('paying again under the same Idempotency-Key after the first answer was lost', () => {
  const pay = (orderId: string, key: string) => call(running.baseUrl, 'POST', `/checkout/${orderId}/pay`, { headers: { 'idempotency-key': key } });

  it('finds the attempt the first request recorded and pushes no second one; another key is another attempt', async () => {
    // This customer never answers the push, so the order stays payable.
    const order = await call(running.baseUrl, 'POST', '/v1/trdp/order', {
      body: orderRequest({ customerPhoneNumber: '+251900000002' }),
      headers: { 'x-api-secret': merchant.apiSecret },
    });
    const orderId = order.body.data.order_id as string;
    const before = await eventsOfType('OrderPaymentInitiated');
    const attempts = async () => (await eventsOfType('OrderPaymentInitiated')) - before;
    expect((await pay(orderId, 'pay-key-1')).status).toBe(200);
    expect(await attempts()).toBe(1);
    await running.schema!.client.query(`DELETE FROM idempotency_keys`);

    const retry = await pay(orderId, 'pay-key-1');
    expect(retry.status).toBe(200);
    expect(retry.body.data.waitingForCustomer).toBe(true);
    expect(await attempts()).toBe(1);

    expect((await pay(orderId, 'pay-key-2')).status).toBe(200);
    expect(await attempts()).toBe(2);
  });
});

