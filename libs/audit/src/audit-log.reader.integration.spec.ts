import { createPgliteClient, migrate, type SqlClient } from '@app/database';
import { EVENT_STORE_MIGRATIONS, eventStoreEngine, type LogReader, type NewEvent, PostgresEventStore } from '@app/event-store';
import { auditLogReader } from '@app/read-models';
import { createTestSchema } from '../../../test/support/postgres';
import { AuditLogReader } from './audit-log.reader';
import { eventHash, GENESIS_HASH } from './hash-chain';

const STREAMS = 600;
const EVENTS_PER_STREAM = 6;
const RECORDED_AT = new Date('2026-11-01T09:00:00.000Z');

/** A stream's events sealed into their hash chain, as the command runner seals them. */
function chained(streamId: string, count: number): NewEvent[] {
  let previousHash = GENESIS_HASH;
  return Array.from({ length: count }, (_, revision) => {
    const event = { type: 'NoteTaken', data: { streamId, revision }, metadata: {}, recordedAt: RECORDED_AT };
    previousHash = eventHash({ streamId, revision: BigInt(revision), ...event }, previousHash);
    return { ...event, hash: previousHash };
  });
}

const streamName = (i: number) => `merchant-m${String(i).padStart(4, '0')}`;

interface Database {
  client: SqlClient;
  schema: string;
  drop(): Promise<void>;
}

const ENGINES: [string, () => Promise<Database>][] = [
  ['PostgreSQL', () => createTestSchema('integrity')],
  [
    'PGlite',
    async () => {
      const client = await createPgliteClient(undefined);
      return { client, schema: 'public', drop: () => client.close() };
    },
  ],
];

/**
 * A log of many short streams, several pages long: the check walks it once, asking for truncated
 * streams once a page rather than once a stream, names a tampered event as before, and stops between
 * pages once its caller is gone.
 */
describe.each(ENGINES)('the integrity check on %s', (_name, open) => {
  let database: Database;
  let log: LogReader;

  beforeAll(async () => {
    database = await open();
    await migrate(database.client, database.schema, 'event-store', EVENT_STORE_MIGRATIONS);
    const store = new PostgresEventStore(database.client, { pollIntervalMs: 10 });
    await Promise.all(Array.from({ length: STREAMS }, (_, i) => store.append(streamName(i), chained(streamName(i), EVENTS_PER_STREAM), 'no_stream')));
    log = auditLogReader(database.client, eventStoreEngine({ eventStore: 'postgres' }));
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('verifies a log of many streams in one pass: a page read and one truncation query per page', async () => {
    const walk = jest.spyOn(log, 'walk');
    const truncated = jest.spyOn(log, 'truncatedStream');
    const progress: number[] = [];
    const report = await new AuditLogReader(log).verifyIntegrity((done) => progress.push(done));
    expect(report).toEqual({ ok: true, streamsChecked: STREAMS, eventsChecked: STREAMS * EVENTS_PER_STREAM, firstBreak: null });
    const pages = walk.mock.calls.length;
    expect(pages).toBe(Math.ceil((STREAMS * EVENTS_PER_STREAM + 1) / 1000));
    expect(truncated.mock.calls.length).toBeLessThanOrEqual(pages + 1);
    expect(progress[progress.length - 1]).toBe(STREAMS * EVENTS_PER_STREAM);
    walk.mockRestore();
    truncated.mockRestore();
  });

  it('stops between pages once its signal is aborted, and asks for nothing more', async () => {
    const walk = jest.spyOn(log, 'walk');
    const truncated = jest.spyOn(log, 'truncatedStream');
    const gone = new AbortController();
    let asked = 0;
    const check = new AuditLogReader(log).verifyIntegrity(() => {
      gone.abort(new Error('client gone'));
      asked = walk.mock.calls.length + truncated.mock.calls.length;
    }, gone.signal);
    await expect(check).rejects.toThrow('client gone');
    // The page after the first was asked for while the first was hashed, before the abort.
    expect(walk).toHaveBeenCalledTimes(2);
    expect(walk.mock.calls.length + truncated.mock.calls.length).toBe(asked);
    walk.mockRestore();
    truncated.mockRestore();
  });

  it('asks for the next page before it hashes one', async () => {
    const walk = jest.spyOn(log, 'walk');
    const askedAtProgress: number[] = [];
    const report = await new AuditLogReader(log).verifyIntegrity(() => askedAtProgress.push(walk.mock.calls.length));
    expect(report.ok).toBe(true);
    // Four pages: each but the last asked for the one after it before it was hashed.
    expect(askedAtProgress).toEqual([2, 3, 4, 4]);
    walk.mockRestore();
  });

  it('names a stream whose end was removed, and an edited event after it, each where the chain breaks', async () => {
    // Far into the walk, past its first pages: the break is still named at its own stream and revision.
    const edited = streamName(STREAMS - 10);
    const truncated = streamName(STREAMS / 2);
    await database.client.query(`UPDATE events SET data = jsonb_set(data, '{revision}', '99') WHERE stream_id = $1 AND stream_revision = 2`, [edited]);
    expect((await new AuditLogReader(log).verifyIntegrity()).firstBreak).toEqual({ streamId: edited, revision: '2', reason: 'hash_mismatch' });
    await database.client.query(`DELETE FROM events WHERE stream_id = $1 AND stream_revision = $2`, [truncated, EVENTS_PER_STREAM - 1]);
    expect((await new AuditLogReader(log).verifyIntegrity()).firstBreak).toEqual({ streamId: truncated, revision: String(EVENTS_PER_STREAM - 1), reason: 'truncated' });
  });
});
