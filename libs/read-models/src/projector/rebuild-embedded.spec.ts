import { createPgliteClient, migrate, type SqlClient } from '@app/database';
import { EVENT_STORE_MIGRATIONS, PostgresEventStore } from '@app/event-store';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';
import { rebuildProjections } from './rebuild';
import { CORE_PROJECTIONS } from './projections';

/** The embedded default rebuilds too (one connection, which the swap holds), its tables keeping their indexes' names. */
describe('rebuilding the read models on PGlite', () => {
  let db: SqlClient;

  beforeAll(async () => {
    db = await createPgliteClient(undefined);
    await migrate(db, 'public', 'event-store', EVENT_STORE_MIGRATIONS);
    await migrate(db, 'public', 'read-models', READ_MODEL_MIGRATIONS);
  });

  afterAll(async () => {
    await db?.close();
  });

  const indexes = () =>
    db.query<{ indexname: string; indexdef: string }>(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename LIKE '%view' ORDER BY 1`);
  const payablesTable = async () => (await db.query<{ oid: string }>(`SELECT 'payables_view'::regclass::oid::text AS oid`))[0].oid;

  it('swaps in copies that carry the live indexes under their own names', async () => {
    const before = await indexes();
    expect(before.map((i) => i.indexname)).toEqual(expect.arrayContaining(['payables_view_pkey', 'payables_view_merchant_order', 'payables_view_pending_expiry']));
    const tableBefore = await payablesTable();

    await rebuildProjections(db, new PostgresEventStore(db), 'public', CORE_PROJECTIONS);

    expect(await payablesTable()).not.toBe(tableBefore);
    expect(await indexes()).toEqual(before);
  });

  it('swaps in tables the planner has statistics for, as a bulk import leaves them only after ANALYZE', async () => {
    await rebuildProjections(db, new PostgresEventStore(db), 'public', CORE_PROJECTIONS);

    const tables = CORE_PROJECTIONS.flatMap((p) => p.tables);
    // reltuples is -1 on a table never analysed or vacuumed (PostgreSQL 14 and later).
    const unanalysed = await db.query<{ relname: string }>(
      `SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND relname = ANY($1) AND reltuples < 0`,
      [tables],
    );
    expect(tables.length).toBeGreaterThan(5);
    expect(unanalysed).toEqual([]);
  });
});
