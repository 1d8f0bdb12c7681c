import { migrate, type SqlClient } from '@app/database';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';
import { READ_MODEL_DATABASES, type ReadModelDatabase } from '../testing/read-model-databases';
import { type PayableListQuery, payableListPage } from './payable-lists.reader';

const at = (minutes: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + minutes * 60_000);

/** A row as the payables view keeps it, with a document naming its allocations (escrows). */
async function payable(db: SqlClient, id: string, kind: 'order' | 'escrow', merchantId: string, status: string, minute: number, allocations: [string, number][] = []) {
  const document = {
    id,
    kind,
    merchantId,
    amount: allocations.reduce((sum, [, amount]) => sum + amount, 0),
    allocations: allocations.map(([m, amount]) => ({ merchantId: m, amount })),
    releases: allocations.map(([m]) => ({ merchantId: m, amount: 1, fee: 0, releasedAt: at(minute).toISOString() })),
  };
  await db.query(
    `INSERT INTO payables_view (payable_id, kind, merchant_id, status, payment_status, amount, expires_at, created_at, updated_at, document)
     VALUES ($1, $2, $3, $4, $4, 100, $5, $5, $5, $6)`,
    [id, kind, merchantId, status, at(minute), JSON.stringify(document)],
  );
  for (const [m] of allocations) {
    await db.query(`INSERT INTO escrow_allocations (merchant_id, escrow_id, creator_id, status, created_at) VALUES ($1, $2, $3, $4, $5)`, [m, id, merchantId, status, at(minute)]);
  }
}

describe.each(READ_MODEL_DATABASES)('lists of orders and escrows on %s', (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;

  beforeAll(async () => {
    database = await open('lists');
    db = database.client;
    await migrate(db, database.schema, 'read-models', READ_MODEL_MIGRATIONS);
    await payable(db, 'esc_1', 'escrow', 'platform', 'HELD', 1, [
      ['seller-a', 100],
      ['seller-b', 200],
    ]);
    await payable(db, 'esc_2', 'escrow', 'platform', 'RELEASED', 2, [['seller-a', 300]]);
    await payable(db, 'esc_3', 'escrow', 'platform', 'HELD', 3, [['seller-b', 400]]);
    await payable(db, 'esc_4', 'escrow', 'other-platform', 'HELD', 4, [['seller-a', 500]]);
    // Two created in the same instant: the id orders them, so none is skipped or shown twice across pages.
    await payable(db, 'ord_a', 'order', 'platform', 'PAID', 5);
    await payable(db, 'ord_b', 'order', 'platform', 'PENDING', 5);
    await payable(db, 'ord_c', 'order', 'platform', 'PAID', 6);
    await payable(db, 'ord_x', 'order', 'other-platform', 'PAID', 7);
  });

  afterAll(async () => {
    await database?.drop();
  });

  const ids = async (query: Partial<PayableListQuery>) => {
    const page = await payableListPage(db, { kind: 'escrow', scope: { createdBy: 'platform' }, limit: 10, ...query });
    return page && { ids: page.payables.map((p) => p.view.id), hasMore: page.hasMore };
  };

  it("pages the creator's escrows and orders newest first, each page after its cursor", async () => {
    expect(await ids({})).toEqual({ ids: ['esc_3', 'esc_2', 'esc_1'], hasMore: false });
    expect(await ids({ limit: 2 })).toEqual({ ids: ['esc_3', 'esc_2'], hasMore: true });
    expect(await ids({ limit: 2, startingAfter: 'esc_2' })).toEqual({ ids: ['esc_1'], hasMore: false });
    expect(await ids({ kind: 'order', limit: 1 })).toEqual({ ids: ['ord_c'], hasMore: true });
    expect(await ids({ kind: 'order', limit: 1, startingAfter: 'ord_c' })).toEqual({ ids: ['ord_b'], hasMore: true });
    expect(await ids({ kind: 'order', limit: 1, startingAfter: 'ord_b' })).toEqual({ ids: ['ord_a'], hasMore: false });
  });

  it('filters by status and by creation time, at or after and strictly before', async () => {
    expect(await ids({ status: 'HELD' })).toEqual({ ids: ['esc_3', 'esc_1'], hasMore: false });
    expect(await ids({ status: 'HELD', limit: 1, startingAfter: 'esc_3' })).toEqual({ ids: ['esc_1'], hasMore: false });
    expect(await ids({ createdAfter: at(2), createdBefore: at(3) })).toEqual({ ids: ['esc_2'], hasMore: false });
    expect(await ids({ kind: 'order', status: 'PAID', createdAfter: at(5) })).toEqual({ ids: ['ord_c', 'ord_a'], hasMore: false });
  });

  it("answers a cursor that is not one of the list's as unknown: another merchant's, another kind's, or none", async () => {
    expect(await ids({ startingAfter: 'esc_4' })).toBeUndefined();
    expect(await ids({ startingAfter: 'ord_a' })).toBeUndefined();
    expect(await ids({ startingAfter: 'esc_404' })).toBeUndefined();
    expect(await ids({ scope: { allocatedTo: 'seller-b' }, startingAfter: 'esc_2' })).toBeUndefined();
  });

  it('lists the escrows a merchant has an allocation in, whoever created them, showing its share only', async () => {
    expect(await ids({ scope: { allocatedTo: 'seller-a' } })).toEqual({ ids: ['esc_4', 'esc_2', 'esc_1'], hasMore: false });
    expect(await ids({ scope: { allocatedTo: 'seller-a', createdBy: 'platform' }, limit: 1 })).toEqual({ ids: ['esc_2'], hasMore: true });
    expect(await ids({ scope: { allocatedTo: 'seller-a', createdBy: 'platform' }, limit: 1, startingAfter: 'esc_2' })).toEqual({ ids: ['esc_1'], hasMore: false });
    expect(await ids({ scope: { allocatedTo: 'seller-a' }, status: 'RELEASED' })).toEqual({ ids: ['esc_2'], hasMore: false });
    expect(await ids({ scope: { allocatedTo: 'seller-a' }, kind: 'order' })).toEqual({ ids: [], hasMore: false });
    const page = await payableListPage(db, { kind: 'escrow', scope: { allocatedTo: 'seller-b' }, limit: 10, createdBefore: at(2) });
    expect(page?.payables.map(({ view }) => [view.id, view.amount, view.allocations?.map((a) => a.merchantId), view.releases?.map((r) => r.merchantId)])).toEqual([
      ['esc_1', 200, ['seller-b'], ['seller-b']],
    ]);
  });
});
