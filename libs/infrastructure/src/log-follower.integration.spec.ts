import type { Logger } from '@nestjs/common';
import { migrate } from '@app/database';
import { EVENT_STORE_MIGRATIONS, PostgresEventStore, type RecordedEvent, START } from '@app/event-store';
import { createTestSchema, type TestSchema } from '../../../test/support/postgres';
import { LONGER_THAN_ANY_TEST_MS, waitFor } from '../../../test/support/wait';
import { LogFollower } from './log-follower';

/**
 * Found by the chaos run: a terminated PostgreSQL connection failed one reaction of the payment-work
 * follower, and that process stopped reacting to the log until it was restarted.
 */
describe('LogFollower', () => {
  let db: TestSchema;
  let store: PostgresEventStore;
  let follower: LogFollower;

  beforeAll(async () => {
    db = await createTestSchema('follow');
    await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
    store = new PostgresEventStore(db.client, { pollIntervalMs: 10 });
  });

  afterAll(async () => {
    await follower?.stop();
    await db?.drop();
  });

  it('goes on following after a reaction failed, handling the failed events again and every later one', async () => {
    const handled: string[] = [];
    let failures = 0;
    const onEvents = async (events: RecordedEvent[]) => {
      if (failures === 0) {
        failures += 1;
        throw new Error('Connection terminated unexpectedly');
      }
      handled.push(...events.map((e) => e.streamId));
    };
    await store.append('order-1', [{ type: 'OrderCreated', data: {}, metadata: {} }], 'no_stream');
    follower = new LogFollower(store, { error: () => undefined, warn: () => undefined } as unknown as Logger);
    await follower.start({ from: async () => START, onEvents, reconcile: async () => undefined, intervalMs: LONGER_THAN_ANY_TEST_MS });

    await waitFor(async () => handled.includes('order-1'), 'the failed event to be handled again');
    await store.append('order-2', [{ type: 'OrderCreated', data: {}, metadata: {} }], 'no_stream');
    await waitFor(async () => handled.includes('order-2'), 'an event appended after the failure to be handled');
    expect(handled).toEqual(['order-1', 'order-2']);
  });

  it('starts even when its first reconcile pass fails, and tries the pass again until it succeeds', async () => {
    let passes = 0;
    const reconcile = async () => {
      passes += 1;
      if (passes < 3) throw new Error('Connection terminated unexpectedly');
    };
    const starting = new LogFollower(store, { error: () => undefined, warn: () => undefined } as unknown as Logger);
    try {
      await expect(starting.start({ from: async () => START, onEvents: async () => undefined, reconcile, intervalMs: LONGER_THAN_ANY_TEST_MS })).resolves.toBeUndefined();
      await waitFor(async () => passes === 3, 'the pass to succeed on its third try');
    } finally {
      await starting.stop();
    }
  });
});
