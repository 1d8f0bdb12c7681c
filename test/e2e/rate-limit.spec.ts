import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { CredentialStore } from '@app/credentials';
import { startApp, TEST_ADMIN_KEY } from '../support/app';
import { createAccount, registerMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { createTestSchema } from '../support/postgres';
import { freePort, spawnService, stopAll, waitForHttp } from '../support/processes';
import { createRedisPrefix } from '../support/redis';

const LIMIT = 30;
const GUESSER = '127.0.0.2';

/** Ten routes of one merchant: the limit is the key's, whichever routes it spends it on. */
const ROUTES: Array<[string, string, unknown?]> = [
  ['POST', '/v1/trdp/verify', { orderId: 'ord_none' }],
  ['GET', '/v1/trdp/orders'],
  ['GET', '/v1/trdp/escrows'],
  ['GET', '/v1/trdp/order/ord_none'],
  ['GET', '/v1/trdp/escrow/esc_none'],
  ['GET', '/v1/trdp/transfers'],
  ['GET', '/v1/trdp/accounts'],
  ['GET', '/v1/trdp/balance'],
  ['GET', '/v1/trdp/payouts'],
  ['GET', '/v1/trdp/webhook-endpoints'],
];

/**
 * A request from another loopback address (Linux answers for all of 127.0.0.0/8): a client address
 * of its own, whose window opens with its first request.
 */
function callFrom(localAddress: string, baseUrl: string, path: string, secret: string): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const sent = request({ host: hostname, port, path, method: 'GET', localAddress, agent: false, headers: { 'x-api-secret': secret } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode!));
    });
    sent.on('error', reject);
    sent.end();
  });
}

async function keysUnder(url: string, prefix: string): Promise<string[]> {
  const client = new IORedis(url, { maxRetriesPerRequest: 1 });
  try {
    const keys: string[] = [];
    for await (const batch of client.scanStream({ match: `${prefix}:*`, count: 1000 })) keys.push(...(batch as string[]));
    return keys.sort();
  } finally {
    await client.quit();
  }
}

// Each step spends one counter (a key, or an address) whose window opens with the step's first request:
// the assertions count requests, and a step's few dozen requests take seconds, far within the minute.
describe('rate limiting per API key, and per address without a valid one', () => {
  it.each([
    ['counted in the process: the embedded mode', 'process'],
    ['shared through PostgreSQL', 'postgres'],
    ['shared through Redis', 'redis'],
  ])('RATE_LIMIT_PER_MINUTE=30 (%s)', async (_, counts) => {
    const redis = counts === 'redis' ? await createRedisPrefix() : undefined;
    const dataDir = counts === 'process' ? mkdtempSync(join(tmpdir(), 'rate-limit-')) : undefined;
    const running = await startApp({
      embeddedDataDir: dataDir,
      env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), ...(redis ? { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix } : {}) },
    });
    try {
      const busy = await registerMerchant(running.baseUrl, 'Busy');
      const quiet = await registerMerchant(running.baseUrl, 'Quiet');
      const platform = await registerMerchant(running.baseUrl, 'Platform');
      const send = (secret: string, index: number, headers: Record<string, string> = {}) => {
        const [method, path, body] = ROUTES[index % ROUTES.length];
        return call(running.baseUrl, method, path, { body, headers: { 'x-api-secret': secret, ...headers } });
      };

      // One key, 40 requests over 10 routes: 30 answered, then 429.
      const answers = [];
      for (let i = 0; i < 40; i++) answers.push(await send(busy.apiSecret, i));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.slice(0, LIMIT).filter((status) => status === 429)).toEqual([]);
      expect(statuses.slice(LIMIT)).toEqual(Array(40 - LIMIT).fill(429));
      expect(answers[0].headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
      expect(answers[0].headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
      expect(answers[LIMIT - 1].headers.get('x-ratelimit-remaining')).toBe('0');
      const limited = answers[LIMIT];
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(limited.headers.get('content-type')).toMatch(/^application\/json/);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(limited.headers.get('x-ratelimit-reset'))).toBe(retryAfter);

      // Another key is not affected.
      for (let i = 0; i < 10; i++) expect((await send(quiet.apiSecret, i)).status).not.toBe(429);

      // A platform acting for its account spends its own key's limit: the account has none of its own.
      const seller = await createAccount(running.baseUrl, platform, 'seller-1');
      const acting = { 'x-account-id': seller };
      const actingAnswers = [];
      for (let i = 1; i < LIMIT; i++) actingAnswers.push((await call(running.baseUrl, 'GET', '/v1/trdp/balance', { headers: { 'x-api-secret': platform.apiSecret, ...acting } })).status);
      expect(actingAnswers).toEqual(Array(LIMIT - 1).fill(200));
      expect((await call(running.baseUrl, 'GET', '/v1/trdp/balance', { headers: { 'x-api-secret': platform.apiSecret, ...acting } })).status).toBe(429);
      expect((await send(platform.apiSecret, 0)).status).toBe(429);

      // Made-up secrets from one address: counted on the address, and looked up in the database only
      // while the address has budget left; the same wrong secret again is refused from memory.
      const credentials = running.app.get(CredentialStore, { strict: false });
      const lookup = jest.spyOn(credentials, 'findByApiSecret');
      const madeUp = Array.from({ length: 100 }, () => `sk_${randomBytes(32).toString('base64url')}`);
      const guess = (secret: string) => callFrom(GUESSER, running.baseUrl, '/v1/trdp/orders', secret);
      const repeated = [];
      for (let i = 0; i < 5; i++) repeated.push(await guess(madeUp[0]));
      expect(repeated).toEqual([401, 401, 401, 401, 401]);
      expect(lookup).toHaveBeenCalledTimes(1);
      const guesses = [];
      for (const secret of madeUp.slice(1)) guesses.push(await guess(secret));
      // The repeats spent 5 of the address's 30: 25 more wrong secrets get their 401, and every one
      // after gets 429 without reaching the database.
      const allowed = LIMIT - 5;
      expect(guesses).toEqual([...Array(allowed).fill(401), ...Array(99 - allowed).fill(429)]);
      expect(lookup).toHaveBeenCalledTimes(1 + allowed);

      if (redis) {
        // The counts are one per key and one per address (those whose window has not closed yet):
        // none for a made-up secret.
        const keys = await keysUnder(redis.url, redis.prefix);
        const counters = [`address:127.0.0.1`, `address:${GUESSER}`, `key:${busy.merchantId}`, `key:${quiet.merchantId}`, `key:${platform.merchantId}`].map((key) => `${redis.prefix}:rate:${key}`);
        const rateKeys = keys.filter((key) => key.startsWith(`${redis.prefix}:rate:`));
        expect(rateKeys).toContain(`${redis.prefix}:rate:address:${GUESSER}`);
        expect(rateKeys.filter((key) => !counters.includes(key))).toEqual([]);
        expect(keys.filter((key) => madeUp.some((secret) => key.includes(secret)))).toEqual([]);
      }
      if (counts === 'postgres') {
        // The same counts as rows of the deployment's schema: none for a made-up secret.
        const rows = await running.schema!.client.query<{ key: string }>(`SELECT key FROM rate_limit_windows ORDER BY key`);
        expect(rows.map((row) => row.key).sort()).toEqual(
          [`address:127.0.0.1`, `address:${GUESSER}`, `key:${busy.merchantId}`, `key:${quiet.merchantId}`, `key:${platform.merchantId}`].sort(),
        );
      }
    } finally {
      await running.close();
      await redis?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is one limit for a key across two API processes on one PostgreSQL, without Redis', async () => {
    const schema = await createTestSchema('rate');
    const env = { DATABASE_URL: schema.url, DATABASE_SCHEMA: schema.schema, SECRETS_KEY: '55'.repeat(32), ADMIN_API_KEY: TEST_ADMIN_KEY, RATE_LIMIT_PER_MINUTE: String(LIMIT) };
    const ports = [await freePort(), await freePort()];
    const apis = ports.map((port) => `http://127.0.0.1:${port}`);
    // One after the other: the first runs the migrations, and the projector that the registration's answer waits for.
    const services = [spawnService('api', { ...env, ROLE: 'all', PORT: String(ports[0]), HOST: '127.0.0.1' })];
    try {
      await waitForHttp(apis[0]);
      services.push(spawnService('api', { ...env, ROLE: 'api', PORT: String(ports[1]), HOST: '127.0.0.1' }));
      await waitForHttp(apis[1]);
      // The readiness probes above spent the address's budget, not the key's.
      const shared = await registerMerchant(apis[0], 'Shared');
      const statuses = [];
      for (let i = 0; i < 40; i++) {
        const [method, path, body] = ROUTES[i % ROUTES.length];
        statuses.push((await call(apis[i % 2], method, path, { body, headers: { 'x-api-secret': shared.apiSecret } })).status);
      }
      // 30 answered between the two, 15 by each; then both refuse: one window, not one per process.
      expect(statuses.slice(0, LIMIT).filter((status) => status === 429)).toEqual([]);
      expect(statuses.slice(LIMIT)).toEqual(Array(40 - LIMIT).fill(429));
    } finally {
      await stopAll(services);
      await schema.drop();
    }
  });
});
