import { migrate, type SqlExecutor } from '@app/database';
import { EVENT_STORE_MIGRATIONS, PostgresEventStore, type RecordedEvent } from '@app/event-store';
import { createTestSchema, type TestSchema } from '../../../../test/support/postgres';
import { waitFor } from '../../../../test/support/wait';
import { writeLast } from './batch-writes';
import type { BatchContext, Projection } from './projection';
import { ProjectionProgress } from './projection-progress';
import { Projector, ProjectorLeaseLost } from './projector';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';

/** A view whose one write a batch rides in the checkpoint's statement, so a batch of it is that one statement. */
const seen: Projection = {
  name: 'seen',
  version: 1,
  tables: ['seen'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
    await writeLast(tx, context, `INSERT INTO seen (stream_id) SELECT jsonb_array_elements_text($1::jsonb)`, [JSON.stringify(events.map((e) => e.streamId))]);
  },
};

describe('the projector on PostgreSQL', () => {
  let db: TestSchema;
  let projector: Projector | undefined;

  beforeEach(async () => {
    db = await createTestSchema('projector');
    await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
    await migrate(db.client, db.schema, 'read-models', READ_MODEL_MIGRATIONS);
    await db.client.exec(`CREATE TABLE seen (stream_id text NOT NULL)`);
  });
  afterEach(async () => {
    await projector?.stop();
    await db.drop();
  });

  it('applies a batch sent as one statement, and writes nothing of one whose checkpoint another projector moved', async () => {
    const store = new PostgresEventStore(db.client, { pollIntervalMs: 10 });
    const errors: unknown[] = [];
    projector = new Projector(db.client, store, [seen], new ProjectionProgress(db.client), {
      lockName: `projector:${db.schema}`,
      schema: db.schema,
      standbyRetryMs: 60_000,
      onError: (error) => errors.push(error),
    });
    projector.start();
    await store.append('order-1', [{ type: 'Happened', data: {}, metadata: {} }], 'no_stream');
    await waitFor(async () => (await db.client.query(`SELECT 1 FROM seen WHERE stream_id = 'order-1'`)).length === 1, 'order-1 to be seen');

    // Another projector (one that took the lead while this one did not notice) moved the checkpoint on.
    await db.client.query(`UPDATE projection_checkpoints SET commit_position = commit_position + 1000`);
    await store.append('order-2', [{ type: 'Happened', data: {}, metadata: {} }], 'no_stream');
    await waitFor(async () => errors.length > 0, 'the projector to stop');
    expect(errors[0]).toBeInstanceOf(ProjectorLeaseLost);
    expect(await db.client.query(`SELECT stream_id FROM seen ORDER BY stream_id`)).toEqual([{ stream_id: 'order-1' }]);
  });
});
