import { migrate, type SqlClient } from '@app/database';
import { merchantEvent, merchantEventsPage, type MerchantEventsQuery } from './merchant-events.reader';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';
import { READ_MODEL_DATABASES, type ReadModelDatabase } from '../testing/read-model-databases';

const at = (minutes: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + minutes * 60_000);
/** KurrentDB's positions pass 2^53: the reader compares them as numbers of the database's, never as JavaScript's. */
const BIG = 18_000_000_000_000_000_000n;

async function row(db: SqlClient, ownerId: string, eventId: string, type: string, minute: number, commit: bigint, prepare: bigint): Promise<void> {
  await db.query(
    `INSERT INTO merchant_events (owner_id, event_id, type, created_at, commit_position, prepare_position, payload) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [ownerId, eventId, type, at(minute), commit.toString(), prepare.toString(), JSON.stringify({ status: type, deliveryId: `dlv_${eventId}`, z: 1, a: 2 })],
  );
}

describe.each(READ_MODEL_DATABASES)('the merchant events reader on %s', (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;
  const query = (overrides: Partial<MerchantEventsQuery> = {}): MerchantEventsQuery => ({ ownerId: 'm-1', limit: 10, order: 'asc', ...overrides });
  const ids = async (overrides: Partial<MerchantEventsQuery> = {}) => (await merchantEventsPage(db, query(overrides)))?.events.map((e) => e.id);

  beforeAll(async () => {
    database = await open('events_reads');
    db = database.client;
    await migrate(db, database.schema, 'read-models', READ_MODEL_MIGRATIONS);
    // Inserted out of log order; e3 and e4 share a commit, e4 recorded a minute before e3.
    await row(db, 'm-1', 'e3', 'RELEASED', 3, BIG + 5n, BIG + 1n);
    await row(db, 'm-1', 'e1', 'PAID', 1, BIG + 1n, BIG);
    await row(db, 'm-1', 'e4', 'REFUNDED', 2, BIG + 5n, BIG + 2n);
    await row(db, 'm-1', 'e2', 'PAID', 2, BIG + 2n, BIG);
    // One event of two owners (a platform and its seller account), and one of another merchant only.
    await row(db, 'm-2', 'e2', 'PAID', 2, BIG + 2n, BIG);
    await row(db, 'm-2', 'e9', 'FAILED', 4, BIG + 9n, BIG);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('lists an owner’s events in log order, or its reverse, a page at a time', async () => {
    expect(await ids()).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(await ids({ order: 'desc' })).toEqual(['e4', 'e3', 'e2', 'e1']);
    expect(await merchantEventsPage(db, query({ limit: 2 }))).toMatchObject({ events: [{ id: 'e1' }, { id: 'e2' }], hasMore: true });
    expect(await merchantEventsPage(db, query({ limit: 2, startingAfter: 'e2' }))).toMatchObject({ events: [{ id: 'e3' }, { id: 'e4' }], hasMore: false });
    expect(await ids({ order: 'desc', startingAfter: 'e3' })).toEqual(['e2', 'e1']);
    expect(await ids({ ownerId: 'm-2', order: 'desc' })).toEqual(['e9', 'e2']);
  });

  it('filters by type and strictly by the time recorded', async () => {
    expect(await ids({ types: ['PAID'] })).toEqual(['e1', 'e2']);
    expect(await ids({ types: ['PAID', 'REFUNDED'], startingAfter: 'e1' })).toEqual(['e2', 'e4']);
    expect(await ids({ createdAfter: at(1) })).toEqual(['e2', 'e3', 'e4']);
    expect(await ids({ createdBefore: at(2) })).toEqual(['e1']);
    expect(await ids({ createdAfter: at(1), createdBefore: at(3) })).toEqual(['e2', 'e4']);
  });

  it('knows a cursor only among the owner’s own events', async () => {
    expect(await merchantEventsPage(db, query({ startingAfter: 'nope' }))).toBeUndefined();
    expect(await merchantEventsPage(db, query({ startingAfter: 'e9' }))).toBeUndefined();
    expect(await ids({ ownerId: 'm-2', startingAfter: 'e2' })).toEqual(['e9']);
  });

  it('answers one event of the owner, its payload in the order it was stored', async () => {
    const event = await merchantEvent(db, 'm-1', 'e3');
    expect(event).toEqual({ id: 'e3', type: 'RELEASED', createdAt: at(3), payload: { status: 'RELEASED', deliveryId: 'dlv_e3', z: 1, a: 2 } });
    expect(Object.keys(event!.payload)).toEqual(['status', 'deliveryId', 'z', 'a']);
    expect(await merchantEvent(db, 'm-2', 'e3')).toBeUndefined();
    expect(await merchantEvent(db, 'm-2', 'e2')).toMatchObject({ id: 'e2', type: 'PAID' });
  });
});
