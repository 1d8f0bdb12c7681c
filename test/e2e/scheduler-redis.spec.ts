import { startApp } from '../support/app';
import { escrowRequest, orderRequest, registerMerchant } from '../support/fixtures';
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
      const merchant = await registerMerchant(running.baseUrl);
      const headers = { 'x-api-secret': merchant.apiSecret };
      const order = await call(running.baseUrl, 'POST', '/v1/trdp/order', {
        body: orderRequest({ customerPhoneNumber: '+251900000002', expiredAt: new Date(Date.now() + 1500).toISOString() }),
        headers,
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
});
