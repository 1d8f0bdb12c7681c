import { migrate, type SqlExecutor } from '@app/database';
import { createTestSchema, type TestSchema } from '../../../test/support/postgres';
import { accountsPage } from './accounts/accounts.reader';
import { payableListPage } from './payables/payable-lists.reader';
import { payoutsPage } from './payouts/payouts.reader';
import { READ_MODEL_MIGRATIONS } from './read-model.migrations';
import { platformTransferPage } from './transfers/transfers.reader';
import { merchantWebhookEndpoints } from './webhook-endpoints/webhook-endpoints.reader';

/** Rows in each scope: a page that reads all of them reads a hundred times what a page of ten does. */
const ROWS = 2000;
const LIMIT = 10;

/** `name_00001` … one id a row, in the order of creation (row i created at minute i). */
const ID = (prefix: string) => `'${prefix}_' || lpad(i::text, 5, '0')`;
const idOf = (prefix: string, i: number) => `${prefix}_${String(i).padStart(5, '0')}`;
const SERIES = `FROM generate_series(1, ${ROWS}) i, LATERAL (SELECT timestamptz '2030-01-01' + i * interval '1 minute' AS t) x`;

/**
 * Statements run named and may be planned once for any values (pg-client.ts): the lists' pages must
 * cost a page under such a generic plan too, on the first page asked with a filter as deep in the
 * list. What a page costs is counted as the rows its statements read of the tables, by a scan or through an
 * index (this transaction's pg_stat_xact counters), with every statement forced to its generic plan.
 */
describe('keyset list pages under generic plans', () => {
  let db: TestSchema;

  beforeAll(async () => {
    db = await createTestSchema('pages');
    await migrate(db.client, db.schema, 'read-models', READ_MODEL_MIGRATIONS);
    // The oldest 20 of each scope HELD (or escrow-bound), the rest not: a filtered first page finds its rows only at the end of the scope's.
    await db.client.exec(`
      INSERT INTO payables_view (payable_id, kind, merchant_id, status, payment_status, amount, expires_at, created_at, updated_at, document)
        SELECT ${ID('esc')}, 'escrow', 'platform', CASE WHEN i <= 20 THEN 'HELD' ELSE 'RELEASED' END, 'PAID', 100, t, t, t,
          jsonb_build_object('id', ${ID('esc')}, 'kind', 'escrow', 'merchantId', 'platform', 'amount', 100,
            'allocations', jsonb_build_array(jsonb_build_object('merchantId', 'seller', 'amount', 100)), 'releases', '[]'::jsonb)
        ${SERIES};
      INSERT INTO escrow_allocations (merchant_id, escrow_id, creator_id, status, created_at)
        SELECT 'seller', payable_id, merchant_id, status, created_at FROM payables_view;
      INSERT INTO payouts_view (payout_id, merchant_id, status, amount, requested_at, last_news_at, document)
        SELECT ${ID('po')}, 'seller', 'PAID', 100, t, t, jsonb_build_object('payoutId', ${ID('po')}) ${SERIES};
      INSERT INTO accounts_view (account_id, merchant_id, status, document, created_at, updated_at)
        SELECT ${ID('acct')}, 'platform', 'ENABLED', jsonb_build_object('accountId', ${ID('acct')}), t, t ${SERIES};
      INSERT INTO transfers_view (transfer_id, platform_id, source, destination, amount, reversed, description, allow_negative, reversals, created_at, updated_at, escrow_id)
        SELECT ${ID('tr')}, 'platform', 'platform', 'seller', 100, 0, '', false, '[]'::jsonb, t, t, CASE WHEN i <= 20 THEN 'esc_00001' END ${SERIES};
      INSERT INTO webhook_endpoints_view (endpoint_id, merchant_id, document, created_at, updated_at)
        SELECT ${ID('we')}, 'platform', jsonb_build_object('endpointId', ${ID('we')}), t, t ${SERIES};
      ANALYZE payables_view, escrow_allocations, payouts_view, accounts_view, transfers_view, webhook_endpoints_view;`);
  });

  afterAll(async () => {
    await db?.drop();
  });

  /** The rows `read` reads of the schema's tables, by a scan or through an index, its statements planned generically, and what it answered. */
  const tuplesRead = <T>(read: (session: SqlExecutor) => Promise<T>) =>
    db.client.transaction(async (tx) => {
      // The counters also hold what this connection's earlier transactions read and has not yet reported: counted before and after.
      const counted = async () =>
        (await tx.query<{ tuples: number }>(`SELECT COALESCE(sum(seq_tup_read + idx_tup_fetch), 0)::int AS tuples FROM pg_stat_xact_user_tables WHERE schemaname = $1`, [db.schema]))[0].tuples;
      await tx.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
      const before = await counted();
      const answer = await read(tx);
      return { tuples: (await counted()) - before, answer };
    });

  /** A page and the cursor's place, with room to spare; the scope's rows are 40 times this. */
  const A_PAGE = 5 * LIMIT;

  it("reads a page's worth of a creator's escrows for a deep page and for a filtered first page", async () => {
    const deep = await tuplesRead((s) => payableListPage(s, { kind: 'escrow', scope: { createdBy: 'platform' }, limit: LIMIT, startingAfter: idOf('esc', 100) }));
    expect(deep.answer?.payables.map((p) => p.view.id)).toEqual(Array.from({ length: LIMIT }, (_, k) => idOf('esc', 99 - k)));
    expect(deep.tuples).toBeLessThan(A_PAGE);
    const held = await tuplesRead((s) => payableListPage(s, { kind: 'escrow', scope: { createdBy: 'platform' }, status: 'HELD', limit: LIMIT }));
    expect(held.answer?.payables.map((p) => p.view.id)).toEqual(Array.from({ length: LIMIT }, (_, k) => idOf('esc', 20 - k)));
    expect(held.tuples).toBeLessThan(A_PAGE);
  });

  it("reads a page's worth of a seller's allocated escrows for a deep page", async () => {
    const deep = await tuplesRead((s) => payableListPage(s, { kind: 'escrow', scope: { allocatedTo: 'seller' }, limit: LIMIT, startingAfter: idOf('esc', 100) }));
    expect(deep.answer?.payables.map((p) => p.view.id)).toEqual(Array.from({ length: LIMIT }, (_, k) => idOf('esc', 99 - k)));
    expect(deep.tuples).toBeLessThan(A_PAGE);
  });

  it("reads a page's worth of a merchant's payouts, accounts and webhook endpoints for a deep page", async () => {
    const payouts = await tuplesRead((s) => payoutsPage(s, 'seller', LIMIT, idOf('po', 100)));
    expect(payouts.answer?.payouts).toHaveLength(LIMIT);
    expect(payouts.tuples).toBeLessThan(A_PAGE);
    const accounts = await tuplesRead((s) => accountsPage(s, 'platform', { limit: LIMIT, startingAfter: idOf('acct', 100) }));
    expect(accounts.answer?.accounts.map((a) => a.account.accountId)).toEqual(Array.from({ length: LIMIT }, (_, k) => idOf('acct', 99 - k)));
    expect(accounts.tuples).toBeLessThan(A_PAGE);
    // Oldest first: deep in this list is near the newest.
    const endpoints = await tuplesRead((s) => merchantWebhookEndpoints(s, 'platform', LIMIT, idOf('we', ROWS - 100)));
    expect(endpoints.answer?.endpoints.map((e) => e.endpoint.endpointId)).toEqual(Array.from({ length: LIMIT }, (_, k) => idOf('we', ROWS - 99 + k)));
    expect(endpoints.tuples).toBeLessThan(A_PAGE);
  });

  it("reads a page's worth of a platform's transfers for a deep page and for a first page of one escrow's", async () => {
    const deep = await tuplesRead((s) => platformTransferPage(s, 'platform', LIMIT, idOf('tr', 100)));
    expect(deep.answer?.transfers.map((t) => t.transferId)).toEqual(Array.from({ length: LIMIT }, (_, k) => idOf('tr', 99 - k)));
    expect(deep.tuples).toBeLessThan(A_PAGE);
    const escrow = await tuplesRead((s) => platformTransferPage(s, 'platform', LIMIT, undefined, { escrowId: 'esc_00001' }));
    expect(escrow.answer?.transfers.map((t) => t.transferId)).toEqual(Array.from({ length: LIMIT }, (_, k) => idOf('tr', 20 - k)));
    expect(escrow.tuples).toBeLessThan(A_PAGE);
  });
});
