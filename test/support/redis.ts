import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { deleteKeysUnder } from '../../chaos/src/redis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A Redis key prefix of its own per test file, removed afterwards. Fails clearly when Redis is missing
 * (a refused connection); a slow one is waited for, with no connect timeout.
 */
export async function createRedisPrefix(): Promise<{ url: string; prefix: string; drop(): Promise<void> }> {
  const client = new IORedis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 0 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new Error(`Redis is not reachable at ${TEST_REDIS_URL} (${(error as Error).message}). Integration tests need a real server: start it (see .ci/run) or set TEST_REDIS_URL.`);
  }
  const prefix = `test-${randomBytes(6).toString('hex')}`;
  return {
    url: TEST_REDIS_URL,
    prefix,
    async drop() {
      await deleteKeysUnder(client, prefix);
      await client.quit();
    },
  };
}
