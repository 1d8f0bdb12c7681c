import { startApp } from '../support/app';
import { escrowRequest, orderRequest, registerMarketplace } from '../support/fixtures';
import { beforeInstant } from '../support/before-instant';
import { call } from '../support/http';
import { createRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';

/** With REDIS_URL set, expiries and refunds are BullMQ delayed jobs that outlive the process. */
describe('scheduled work on BullMQ', () => {
  it('expires an unpaid order at its expiredAt, and refunds a cancelled escrow, through Redis', async () => {
    const redis = await createRedisPrefix();
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, SANDBOX_DELAY_MS: '30', REFUND_RETRY_MS: '100' };
    const running = await startApp({ env });
    try {
      const merchant = await registerMarketplace(running.baseUrl);
      const headers = { 'x-api-secret': merchant.apiSecret };
      const { sent: order } = await beforeInstant(1500, async (expiredAt) => {
        const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ customerPhoneNumber: '+251900000002', expiredAt }), headers });
        expect(created.status).toBe(201);
        return created;
      });
      const escrow = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest(), headers });
      const escrowId = escrow.body.data.escrowId;
      await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers });
      await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/cancel`, { body: { reason: 'out of stock' }, headers });

      const jobs = await waitFor(async () => {
        const { Queue } = await import('bullmq');
        const queue = new Queue('payment-work', { connection: { host: '127.0.0.1', port: 6379 }, prefix: redis.prefix });
        const counts = await queue.getJobCounts('delayed', 'completed', 'waiting', 'active');
        await queue.close();
        return counts.delayed + counts.completed > 0 && counts;
      }, 'jobs in the BullMQ queue');
      expect(jobs.delayed + jobs.completed).toBeGreaterThan(0);

      await waitFor(async () => {
        const res = await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: order.body.data.order_id }, headers });
        return res.body.data.status === 'EXPIRED';
      }, 'the order to expire');
      await waitFor(async () => {
        const res = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers });
        return res.body.data.status === 'REFUNDED';
      }, 'the refund to complete');
    } finally {
      await running.close();
      await redis.drop();
    }
  });

  it('queues an expiry only when it is near (a reconcile pass queues it in time), and the order still expires on time', async () => {
    const redis = await createRedisPrefix();
    // Reconcile every second: expiries within 2 s are queued at once, later ones by a pass. The order
    // expires in 15 s, so that it is created long before its expiry is near.
    const running = await startApp({ env: { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, RECONCILE_INTERVAL_MS: '1000' } });
    const { Queue } = await import('bullmq');
    const queue = new Queue('payment-work', { connection: { host: '127.0.0.1', port: 6379 }, prefix: redis.prefix });
    try {
      const merchant = await registerMarketplace(running.baseUrl);
      const headers = { 'x-api-secret': merchant.apiSecret };
      const { sent: order, instant } = await beforeInstant(15_000, async (expiredAt) => {
        const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ customerPhoneNumber: '+251900000003', expiredAt }), headers });
        expect(created.status).toBe(201);
        return created;
      });
      const expiresAt = Date.parse(instant);
      const orderId = order.body.data.order_id as string;
      const queuedAtOnce = await queue.getJob(`expire.${orderId}.-.e0`);
      // Queued already is right only once the expiry is within the look-ahead (two reconcile intervals), which a machine this slow has reached.
      if (queuedAtOnce !== undefined) expect(Date.now()).toBeGreaterThanOrEqual(expiresAt - 2_000);

      const expired = await waitFor(async () => {
        const res = await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId }, headers });
        return res.body.data.status === 'EXPIRED' && Date.now();
      }, 'the order to expire');
      expect(expired).toBeGreaterThanOrEqual(expiresAt);
      // A pass that read the view before it showed the expiry may be queueing the job anew just now.
      await waitFor(async () => (await queue.getJob(`expire.${orderId}.-.e0`)) !== undefined, 'the expiry job in the queue');
    } finally {
      await queue.close();
      await running.close();
      await redis.drop();
    }
  });
});
