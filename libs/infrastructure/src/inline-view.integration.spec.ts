import { loadConfig } from '@app/config';
import { migrate } from '@app/database';
import { EVENT_STORE_MIGRATIONS, type InlineProjection, PostgresEventStore } from '@app/event-store';
import { ProjectionProgress } from '@app/read-models';
import { createTestSchema, type TestSchema } from '../../../test/support/postgres';
import type { CommandRunner } from './command-runner';
import { newStream } from './known-stream';
import { composeCommandRunners } from './composed-command-runner';
import { Metrics } from './metrics';
import { ProjectedReads } from './projected-reads';
import { counter, stepped } from './testing/counters';

const metadata = { actor: { type: 'system' as const, id: 'test' } };

/** A view of counters written inline (as the payables view is on PostgreSQL); other streams have no row. */
const counters: InlineProjection = {
  row: (streamId, state, { createdAt }) => (streamId.startsWith('counter-') ? { counter_id: streamId, step: state, created_at: createdAt } : undefined),
  upsert: (source) => `INSERT INTO counter_view SELECT r.counter_id, r.step, r.created_at, r.revision
    FROM ${source} CROSS JOIN LATERAL jsonb_populate_record(NULL::counter_view, written.row) AS r
    ON CONFLICT (counter_id) DO UPDATE SET step = EXCLUDED.step, revision = EXCLUDED.revision`,
};

/** The composed runner on PostgreSQL with a view written in the append's statement: what only that adapter does. */
describe('command runner with a view written inline', () => {
  let db: TestSchema;
  let store: PostgresEventStore;
  let progress: ProjectionProgress;
  let runner: CommandRunner;

  beforeAll(async () => {
    db = await createTestSchema('runner_inline');
    await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
    await db.client.exec(`CREATE TABLE counter_view (counter_id text PRIMARY KEY, step int NOT NULL, created_at timestamptz NOT NULL, revision bigint NOT NULL)`);
    progress = new ProjectionProgress(db.client);
    store = new PostgresEventStore(db.client, { inline: counters });
    runner = composeCommandRunners(store, new ProjectedReads(store, progress, loadConfig({ READ_YOUR_WRITES_TIMEOUT_MS: '50' })), new Metrics()).answering;
  });

  afterAll(async () => {
    progress?.close();
    await store?.close();
    await db?.drop();
  });

  afterEach(() => jest.restoreAllMocks());

  const view = async (id: string) =>
    db.client.query<{ step: number; revision: number; created_at: Date }>(`SELECT step, revision::int AS revision, created_at FROM counter_view WHERE counter_id = $1`, [id]);

  it('answers without waiting for the projector when the append wrote the view of its own stream', async () => {
    const waits = jest.spyOn(progress, 'waitFor');
    const outcome = await runner.run('counter-inline', counter, { type: 'StepOn' }, metadata, newStream(counter));
    await runner.run('counter-inline', counter, { type: 'StepOn' }, metadata);
    expect(waits).not.toHaveBeenCalled();
    expect(outcome.state).toBe(1);
    const [first] = await store.readStream('counter-inline');
    expect(await view('counter-inline')).toEqual([{ step: 2, revision: 1, created_at: first.recordedAt }]);
  });

  it('writes the view of a stream it decided on after reading it', async () => {
    await store.append('counter-read', [stepped(1)], 'no_stream');
    await runner.run('counter-read', counter, { type: 'StepOn' }, metadata);
    const [first] = await store.readStream('counter-read');
    expect(await view('counter-read')).toEqual([{ step: 2, revision: 1, created_at: first.recordedAt }]);
  });

  it('waits for the projector when no view was written inline', async () => {
    const waits = jest.spyOn(progress, 'waitFor');
    await runner.run('tally-1', counter, { type: 'StepOn' }, metadata, newStream(counter));
    expect(waits).toHaveBeenCalledTimes(1);
  });
});
