import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { freePort, ManagedProcess, waitUntil } from './processes';

export interface ChaosRedis {
  url: string;
  prefix: string;
  /** What the Redis fault does here, for the report. */
  faultDescription: string;
  /** Loses everything the service had queued. */
  lose(): Promise<void>;
  close(): Promise<void>;
}

async function ping(url: string): Promise<boolean> {
  const client = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * A Redis of the run's own, so that restarting it touches no one else's keys: killed and started
 * again, it comes back empty, like a Redis without persistence after a crash.
 */
async function ownRedis(runDir: string, prefix: string, startWithinMs: number): Promise<ChaosRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const server = new ManagedProcess('redis', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {}, join(runDir, 'redis.log'));
  server.start();
  await waitUntil(() => ping(url), `redis-server on port ${port}`, startWithinMs);
  return {
    url,
    prefix,
    faultDescription: 'redis-server killed (SIGKILL) and started again empty',
    async lose() {
      await server.kill();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      server.start();
      await waitUntil(() => ping(url), 'redis-server to come back', startWithinMs);
    },
    close: () => server.close(),
  };
}

/** Without a redis-server binary the run shares a Redis, and its fault deletes only the run's keys. */
async function sharedRedis(url: string, prefix: string): Promise<ChaosRedis> {
  if (!(await ping(url))) throw new Error(`Redis is not reachable at ${url}: start it, or put redis-server on PATH`);
  const deleteKeys = async () => {
    const client = new IORedis(url);
    await deleteKeysUnder(client, prefix);
    await client.quit();
  };
  return { url, prefix, faultDescription: `every key under ${prefix}: deleted (a FLUSHALL limited to this run)`, lose: deleteKeys, close: deleteKeys };
}

/** SCAN rather than KEYS: the Redis may be shared, and KEYS blocks it while it walks every key. */
export async function deleteKeysUnder(client: IORedis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    if (keys.length > 0) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

export function startRedis(runDir: string, prefix: string, sharedUrl: string, startWithinMs = 10_000): Promise<ChaosRedis> {
  return hasRedisServer() ? ownRedis(runDir, prefix, startWithinMs) : sharedRedis(sharedUrl, prefix);
}
