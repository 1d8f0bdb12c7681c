import { createServer, type Server } from 'node:http';
import { startApp } from '../support/app';
import { orderRequest, registerMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/** A merchant who fixed its endpoint asks for the callback now, not at the next scheduled retry hours away. */
it('sends a pending callback at once on redelivery, instead of waiting for its next scheduled retry', async () => {
  let answers = [500];
  const arrivals: number[] = [];
  const receiver: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrivals.push(Date.now());
      response.statusCode = answers.shift() ?? 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/callbacks`;
  const running = await startApp({ env: { SANDBOX_DELAY_MS: '30', CALLBACK_RETRY_SCHEDULE_MS: '3600000' } });
  try {
    const merchant = await registerMerchant(running.baseUrl);
    const headers = { 'x-api-secret': merchant.apiSecret };
    const order = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ callbackURL: url }), headers });
    const orderId = order.body.data.order_id;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${orderId}/complete`, { body: { outcome: 'PAID' }, headers });
    const [pending] = await waitFor(async () => {
      const list = (await call(running.baseUrl, 'GET', `/v1/trdp/callbacks?orderId=${orderId}`, { headers })).body.data;
      return list[0]?.attempts.length === 1 && list;
    }, 'the first, failed attempt');
    expect(pending.status).toBe('PENDING');
    answers = [];
    const redeliver = await call(running.baseUrl, 'POST', `/v1/trdp/callbacks/${pending.deliveryId}/redeliver`, { headers });
    expect(redeliver.status).toBe(202);
    const [delivered] = await waitFor(async () => {
      const list = (await call(running.baseUrl, 'GET', `/v1/trdp/callbacks?orderId=${orderId}`, { headers })).body.data;
      return list[0]?.status === 'DELIVERED' && list;
    }, 'the redelivered attempt, long before the hour-long retry');
    expect(delivered.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    expect(arrivals).toHaveLength(2);
  } finally {
    await running.close();
    receiver.close();
  }
});
