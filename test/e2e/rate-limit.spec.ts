import { startApp } from '../support/app';
import { registerMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { createRedisPrefix } from '../support/redis';

describe('rate limiting per merchant', () => {
  it.each([
    ['in memory', false],
    ['shared through Redis', true],
  ])('answers 429 RATE_LIMITED with Retry-After past the limit (%s), merchant by merchant', async (_, withRedis) => {
    const redis = withRedis ? await createRedisPrefix() : undefined;
    const running = await startApp({
      env: { RATE_LIMIT_PER_MINUTE: '5', ...(redis ? { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix } : {}) },
    });
    try {
      const first = await registerMerchant(running.baseUrl, 'Busy');
      const second = await registerMerchant(running.baseUrl, 'Quiet');
      const verify = (secret: string) => call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: 'ord_none' }, headers: { 'x-api-secret': secret } });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await verify(first.apiSecret)).status);
      expect(statuses).toEqual([404, 404, 404, 404, 404]);
      const limited = await verify(first.apiSecret);
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await verify(second.apiSecret)).status).toBe(404);
    } finally {
      await running.close();
      await redis?.drop();
    }
  });
});
