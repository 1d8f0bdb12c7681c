import { type RunningApp, startApp } from '../support/app';
import { orderRequest, registerMerchant } from '../support/fixtures';
import { call } from '../support/http';

/**
 * Found by the chaos run: while the projector was down (killed, restarting), the checkout's "Pay"
 * sent the push and recorded the attempt, then answered 404 from read models that did not have the
 * order yet: a write the customer was told had not happened.
 */
describe('paying while the read models lag behind', () => {
  let running: RunningApp;

  beforeAll(async () => {
    // An API process without a projector: its read models stay behind its writes.
    running = await startApp({ env: { ROLE: 'api', READ_YOUR_WRITES_TIMEOUT_MS: '100' } });
  });

  afterAll(() => running?.close());

  it('answers the checkout Pay from the attempt it recorded', async () => {
    const merchant = await registerMerchant(running.baseUrl);
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest(), headers: { 'x-api-secret': merchant.apiSecret } });
    expect(created.status).toBe(201);
    const orderId = created.body.data.order_id as string;

    const pay = await call(running.baseUrl, 'POST', `/checkout/${orderId}/pay`);
    expect(pay.status).toBe(200);
    expect(pay.body.data).toMatchObject({ id: orderId, status: 'PENDING', waitingForCustomer: true, amount: 250.75 });
    const [attempts] = await running.schema!.client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM events WHERE stream_id = $1 AND event_type = 'OrderPaymentInitiated'`,
      [`order-${orderId}`],
    );
    expect(attempts.count).toBe(1);
  });
});
