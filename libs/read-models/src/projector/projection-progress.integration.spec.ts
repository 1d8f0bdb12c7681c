import { createPgClient, migrate, notificationChannel, type SqlClient } from '@app/database';
import { EVENT_STORE_MIGRATIONS, PostgresEventStore } from '@app/event-store';
import { createTestSchema, type TestSchema } from '../../../../test/support/postgres';
import { LONGER_THAN_ANY_TEST_MS, waitFor } from '../../../../test/support/wait';
import type { Projection } from './projection';
import { ProjectionProgress } from './projection-progress';
import { Projector } from './projector';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';

const counted: Projection = { name: 'counted', version: 1, tables: [], applyBatch: async () => undefined };

describe('ProjectionProgress in a process without the projector', () => {
  let db: TestSchema;
  let apiProcess: SqlClient;
  let projector: Projector;
  let progress: ProjectionProgress;

  beforeEach(async () => {
    db = await createTestSchema('progress');
    await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
    await migrate(db.client, db.schema, 'read-models', READ_MODEL_MIGRATIONS);
    apiProcess = createPgClient({ connectionString: db.url, schema: db.schema });
  });
  afterEach(async () => {
    progress.close();
    await projector.stop();
    await apiProcess.close();
    await db.drop();
  });

  it("learns of the projector's checkpoint moves from their notifications, not its poll", async () => {
    const checkpointChannel = notificationChannel(db.schema, 'checkpoint');
    const events = notificationChannel(db.schema, 'events');
    const projectorStore = new PostgresEventStore(db.client, { notifyChannel: events, pollIntervalMs: 10 });
    projector = new Projector(db.client, projectorStore, [counted], new ProjectionProgress(db.client), {
      lockName: `projector:${db.schema}`,
      schema: db.schema,
      checkpointChannel,
    });
    projector.start();
    // The API process polls the checkpoint far too rarely to see the move within the test's time.
    progress = new ProjectionProgress(apiProcess, { pollIntervalMs: LONGER_THAN_ANY_TEST_MS, checkpointChannel });
    const apiStore = new PostgresEventStore(apiProcess, { notifyChannel: events });

    const first = await apiStore.append('order-1', [{ type: 'Happened', data: {}, metadata: {} }], 'no_stream');
    // The first wait polls once at its start and starts listening (and reads once more when it is).
    await expect(progress.waitFor(first.position, LONGER_THAN_ANY_TEST_MS)).resolves.toBe(true);
    // With the LISTEN in place, a later move reaches this process only by its notification.
    await waitFor(
      async () => (await db.client.query(`SELECT 1 FROM pg_stat_activity WHERE query = $1`, [`LISTEN ${checkpointChannel}`])).length > 0,
      'the listener',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await apiStore.append('order-2', [{ type: 'Happened', data: {}, metadata: {} }], 'no_stream');
    await expect(progress.waitFor(second.position, LONGER_THAN_ANY_TEST_MS)).resolves.toBe(true);
    expect(progress.position).toEqual(second.position);
  });
});
