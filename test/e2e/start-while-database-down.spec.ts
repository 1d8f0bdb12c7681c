import { PostgresProxy } from '../../chaos/src/postgres-proxy';
import { startApp } from '../support/app';
import { registerMerchant } from '../support/fixtures';
import { createTestSchema, TEST_DATABASE_URL } from '../support/postgres';

/**
 * A process its supervisor restarts while PostgreSQL restarts, or fails over, waits for the database
 * and starts, as the processes already running ride the outage out, instead of exiting again.
 */
it('starts once PostgreSQL is reachable again when it was not at first', async () => {
  const schema = await createTestSchema('unreachable');
  const target = new URL(TEST_DATABASE_URL);
  const proxy = await PostgresProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
  try {
    await proxy.cut();
    const starting = startApp({ schema, env: { DATABASE_URL: proxy.urlFor(TEST_DATABASE_URL) } });
    const outcome = await Promise.race([starting.then(() => 'started'), new Promise((resolve) => setTimeout(resolve, 2_000, 'waiting'))]);
    expect(outcome).toBe('waiting');
    await proxy.restore();
    const running = await starting;
    try {
      const merchant = await registerMerchant(running.baseUrl);
      expect(merchant.apiSecret).toEqual(expect.any(String));
    } finally {
      await running.stop();
    }
  } finally {
    await proxy.close();
    await schema.drop();
  }
});
