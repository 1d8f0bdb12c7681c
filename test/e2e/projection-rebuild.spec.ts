/**
 * Rebuilding the read models from the event log while the service keeps serving (libs/read-models
 * rebuild.ts), on real PostgreSQL: a few thousand mixed operations go through the HTTP API, the read
 * models are snapshotted once everything has settled, and a rebuild (all projections, then the ledger
 * alone with what it reads) must swap in tables equal to them row for row, while requests fired during
 * the rebuild all succeed and the live projector keeps working on the swapped-in tables afterwards.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, type EventStore, formatPosition } from '@app/event-store';
import { CORE_PROJECTIONS, type RebuildProgress, rebuildProjections, selectForRebuild } from '@app/read-models';
import { tableDefinitions } from '../../libs/read-models/src/testing/read-model-databases';
import { type RunningApp, startApp } from '../support/app';
import { escrowRequest, orderRequest, registerMarketplace, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { call, type HttpResult } from '../support/http';
import { waitFor } from '../support/wait';

const ENV = { SANDBOX_DELAY_MS: '30', REFUND_RETRY_MS: '100', RECONCILE_INTERVAL_MS: '500' };

const ESCROWS = 300;
const ORDERS = 150;
const CONCURRENCY = 10;

/** Every read-model table with its primary key, the order its rows are compared in. */
const TABLES: Record<string, string> = {
  merchants_view: 'merchant_id COLLATE "C"',
  payables_view: 'payable_id COLLATE "C"',
  callback_deliveries_view: 'delivery_id COLLATE "C"',
  provider_operations: 'operation_id COLLATE "C"',
  stream_owners: 'stream_id COLLATE "C"',
  ledger_entries: 'entry_id COLLATE "C"',
  ledger_postings: 'entry_id COLLATE "C", line',
  ledger_balances: 'account COLLATE "C"',
  ledger_tenant_modes: 'tenant_id COLLATE "C"',
};
const TABLE_NAMES = Object.keys(TABLES);

type Snapshot = Record<string, string[]>;

/** All rows, all columns, in primary-key order, each as canonical JSON (jsonb sorts keys; timestamps print the same way). */
async function snapshot(db: SqlClient, tables: readonly string[] = TABLE_NAMES): Promise<Snapshot> {
  const result: Snapshot = {};
  for (const table of tables) {
    const rows = await db.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY ${TABLES[table]}`);
    result[table] = rows.map((r) => r.row);
  }
  return result;
}

/** A short, readable account of how two snapshots differ (empty when equal). */
function differences(expected: Snapshot, actual: Snapshot): string[] {
  const out: string[] = [];
  for (const table of Object.keys(expected)) {
    const want = expected[table];
    const got = actual[table] ?? [];
    if (want.length !== got.length) out.push(`${table}: ${want.length} rows expected, ${got.length} found`);
    const wanted = new Set(want);
    const found = new Set(got);
    const missing = want.filter((row) => !found.has(row));
    const extra = got.filter((row) => !wanted.has(row));
    for (const row of missing.slice(0, 3)) out.push(`${table}: missing ${row}`);
    for (const row of extra.slice(0, 3)) out.push(`${table}: unexpected ${row}`);
    if (missing.length === 0 && extra.length === 0 && want.join('\n') !== got.join('\n')) out.push(`${table}: same rows in another order`);
  }
  return out;
}

/** Every index and key constraint of the rebuilt tables, names included (later migrations find them by name). */
const indexDefinitions = (db: SqlClient, schema: string) => tableDefinitions(db, schema, TABLE_NAMES);

/** Runs `work` over `items`, at most `limit` at a time. */
async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  });
  await Promise.all(runners);
  return results;
}

function expectOk(res: HttpResult, what: string): HttpResult {
  if (res.status < 200 || res.status >= 300) throw new Error(`${what} answered ${res.status}: ${res.text}`);
  return res;
}

describe('rebuilding the read models while the service runs (PostgreSQL)', () => {
  let running: RunningApp;
  let db: SqlClient;
  let appDb: SqlClient;
  let store: EventStore;
  let schema: string;
  let merchants: TestMarketplace[];
  let receiver: Server;
  let callbacksReceived = 0;
  let callbackURL: string;
  const escrows: { escrowId: string; merchant: TestMerchant }[] = [];
  const orders: { orderId: string; merchant: TestMerchant }[] = [];
  let before: Snapshot;
  let indexesBefore: string[];

  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (m: TestMerchant, path: string, body: unknown) => call(running.baseUrl, 'POST', path, { body, headers: as(m) });

  /** No refund waiting, no callback pending, every follower of the log at its head, and the log quiet for a moment. */
  async function quiescent(): Promise<void> {
    let last = '';
    await waitFor(
      async () => {
        const [row] = await db.query<Record<string, number>>(
          `SELECT
             (SELECT count(*)::int FROM provider_operations WHERE kind = 'refund' AND status = 'OPEN') AS refunds,
             (SELECT count(*)::int FROM payables_view WHERE status = 'REFUND_PENDING') AS refund_pending,
             (SELECT count(*)::int FROM callback_deliveries_view WHERE status = 'PENDING') AS callbacks_pending,
             (SELECT count(*)::int FROM events e JOIN projection_checkpoints c
                ON (e.transaction_id::text::numeric, e.global_position) > (c.commit_position, c.prepare_position)) AS lag,
             (SELECT count(*)::int FROM projection_checkpoints) AS followers,
             (SELECT count(*)::int FROM events) AS events`,
        );
        const busy = row.refunds + row.refund_pending + row.callbacks_pending + row.lag;
        const state = JSON.stringify(row);
        const settled = busy === 0 && row.followers === 2 && state === last;
        last = state;
        if (!settled) await new Promise((resolve) => setTimeout(resolve, 150));
        return settled;
      },
      'the service to settle (refunds paid out, callbacks delivered, read models at the head of the log)',
    );
  }

  async function settle(m: TestMerchant, id: string, outcome: 'PAID' | 'FAILED'): Promise<void> {
    const res = expectOk(await post(m, `/v1/sandbox/orders/${id}/complete`, { outcome }), `completing ${id}`);
    if (res.body.data.status === outcome) return;
    await waitFor(async () => (await post(m, '/v1/trdp/verify', { orderId: id })).body?.data?.status === outcome, `${id} to be ${outcome}`);
  }

  async function createEscrow(m: TestMarketplace, i: number): Promise<string> {
    const seller = 500 + i + 0.25;
    const courier = 100 + (i % 7) * 10;
    const amount = Math.round((seller + courier) * 100) / 100;
    const res = await post(
      m,
      '/v1/trdp/escrow/order',
      escrowRequest({
        amount,
        items: [{ productId: `sku-${i}`, item_name: `Item ${i}`, quantity: 1, unit_price: amount }],
        allocations: [
          { merchantId: m.seller1, amount: seller, metadata: { purpose: `goods ${i}` } },
          { merchantId: m.courier1, amount: courier },
        ],
        callbackURL,
      }),
    );
    expectOk(res, `creating escrow ${i}`);
    return res.body.data.escrowId;
  }

  /** One escrow's life, chosen by its number: pending, failed, cancelled unpaid or refunded, released in part or in full, paid twice, paid late. */
  async function escrowLife(i: number): Promise<void> {
    const m = merchants[i % merchants.length];
    const escrowId = await createEscrow(m, i);
    escrows.push({ escrowId, merchant: m });
    const release = async (merchantId: string) => expectOk(await post(m, `/v1/trdp/escrow/${escrowId}/release`, { merchantId }), `releasing ${escrowId}`);
    const cancel = async () => expectOk(await post(m, `/v1/trdp/escrow/${escrowId}/cancel`, { reason: 'test' }), `cancelling ${escrowId}`);
    switch (i % 12) {
      case 0: // left pending
        return;
      case 1:
        return settle(m, escrowId, 'FAILED');
      case 2: // cancelled before payment
        await cancel();
        return;
      case 3: // cancelled, then paid anyway: the late payment is refused and refunded
        await cancel();
        expectOk(await post(m, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' }), `paying ${escrowId} late`);
        return;
      case 4:
      case 5: // paid, cancelled, refunded
        await settle(m, escrowId, 'PAID');
        await cancel();
        return;
      case 6: // paid, one allocation released, the rest refunded
        await settle(m, escrowId, 'PAID');
        await release(m.seller1);
        await cancel();
        return;
      case 7: // paid twice: the second payment is refused and refunded
        await settle(m, escrowId, 'PAID');
        expectOk(await post(m, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' }), `paying ${escrowId} twice`);
        await release(m.courier1);
        return;
      case 8:
      case 9: // released in full
        await settle(m, escrowId, 'PAID');
        await release(m.seller1);
        await release(m.courier1);
        return;
      case 10: // released in part
        await settle(m, escrowId, 'PAID');
        await release(i % 2 === 0 ? m.seller1 : m.courier1);
        return;
      default: // held
        await settle(m, escrowId, 'PAID');
    }
  }

  async function orderLife(i: number): Promise<void> {
    const m = merchants[(i + 1) % merchants.length];
    const amount = 50 + i + 0.5;
    const res = await post(
      m,
      '/v1/trdp/order',
      orderRequest({ amount, items: [{ productId: `sku-${i}`, item_name: `Order item ${i}`, quantity: 1, unit_price: amount }], callbackURL }),
    );
    expectOk(res, `creating order ${i}`);
    const orderId: string = res.body.data.order_id;
    orders.push({ orderId, merchant: m });
    switch (i % 6) {
      case 0:
        return;
      case 1:
        return settle(m, orderId, 'FAILED');
      case 2: // paid twice: refused and refunded
        await settle(m, orderId, 'PAID');
        expectOk(await post(m, `/v1/sandbox/orders/${orderId}/complete`, { outcome: 'PAID' }), `paying ${orderId} twice`);
        return;
      default:
        return settle(m, orderId, 'PAID');
    }
  }

  async function eventsUpTo(position: RebuildProgress['position']): Promise<number> {
    const [row] = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM events WHERE (transaction_id::text::numeric, global_position) <= ($1::numeric, $2::numeric)`,
      [position.commit.toString(), position.prepare.toString()],
    );
    return row.count;
  }

  async function shadowSchemaExists(): Promise<boolean> {
    const rows = await db.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [`${schema}__rebuild`]);
    return rows.length > 0;
  }

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        callbacksReceived += 1;
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    callbackURL = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;

    running = await startApp({ env: ENV });
    db = running.schema!.client;
    schema = running.config.databaseSchema;
    appDb = running.app.get<SqlClient>(SQL_CLIENT);
    store = running.app.get<EventStore>(EVENT_STORE);
    merchants = [await registerMarketplace(running.baseUrl, 'Merkato Online'), await registerMarketplace(running.baseUrl, 'Shola Market')];

    await Promise.all([
      inPool(
        Array.from({ length: ESCROWS }, (_, i) => i),
        CONCURRENCY,
        (i) => escrowLife(i),
      ),
      inPool(
        Array.from({ length: ORDERS }, (_, i) => i),
        Math.ceil(CONCURRENCY / 2),
        (i) => orderLife(i),
      ),
    ]);
    await quiescent();
    before = await snapshot(db);
    indexesBefore = await indexDefinitions(db, schema);
  });

  afterAll(async () => {
    await running?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('has a realistic log to rebuild from', async () => {
    const [{ events }] = await db.query<{ events: number }>(`SELECT count(*)::int AS events FROM events`);
    expect(events).toBeGreaterThan(2000);
    // Two merchants, each a test and a live tenant (docs/concepts/modes.md).
    expect(before.merchants_view).toHaveLength(4);
    expect(before.payables_view).toHaveLength(ESCROWS + ORDERS);
    expect(before.callback_deliveries_view.length).toBeGreaterThan(300);
    expect(callbacksReceived).toBeGreaterThanOrEqual(before.callback_deliveries_view.length);
    const statuses = await db.query<{ status: string }>(`SELECT DISTINCT status FROM payables_view WHERE kind = 'escrow' ORDER BY status`);
    expect(statuses.map((s) => s.status)).toEqual(['CANCELLED', 'FAILED', 'HELD', 'PARTIALLY_REFUNDED', 'PARTIALLY_RELEASED', 'PENDING', 'REFUNDED', 'RELEASED']);
    const deliveries = await db.query<{ status: string }>(`SELECT DISTINCT status FROM callback_deliveries_view`);
    expect(deliveries).toEqual([{ status: 'DELIVERED' }]);
    const [refunds] = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ledger_entries WHERE description = 'Refund paid out'`);
    expect(refunds.count).toBeGreaterThan(50);
  });

  it('rebuilds every projection while requests keep succeeding, swapping in tables equal to the live ones', async () => {
    const checkpointBefore = await db.query<{ name: string }>(`SELECT name FROM projection_checkpoints ORDER BY name`);
    expect(checkpointBefore.map((c) => c.name)).toEqual(['callback-dispatcher', 'read-models']);
    const reports: RebuildProgress[] = [];
    let done = false;
    // Batches smaller than the log, so that it reports progress more than once whatever the log's size.
    const rebuild = rebuildProjections(appDb, store, schema, CORE_PROJECTIONS, (p) => reports.push(p), { batchSize: 500 }).finally(() => (done = true));

    // While it runs: reads (verify) of what existed, and new escrows, from several clients at once.
    const during: { what: string; status: number }[] = [];
    const created: { escrowId: string; merchant: TestMerchant }[] = [];
    let n = 0;
    const client = async (k: number) => {
      while (!done || n < 40) {
        const i = n++;
        if (i % 4 === 3) {
          const m = merchants[i % 2];
          const res = await post(m, '/v1/trdp/escrow/order', escrowRequest({ callbackURL }));
          during.push({ what: `create escrow (${res.text.slice(0, 200)})`, status: res.status });
          if (res.status === 201) created.push({ escrowId: res.body.data.escrowId, merchant: m });
        } else {
          const target = i % 2 === 0 ? escrows[(i * 7 + k) % escrows.length] : undefined;
          const order = orders[(i * 5 + k) % orders.length];
          const res = target
            ? await post(target.merchant, '/v1/trdp/verify', { orderId: target.escrowId })
            : await post(order.merchant, '/v1/trdp/verify', { orderId: order.orderId });
          during.push({ what: `verify (${res.text.slice(0, 200)})`, status: res.status });
        }
      }
    };
    const [result] = await Promise.all([rebuild, ...Array.from({ length: 6 }, (_, k) => client(k))]);

    expect(during.filter((r) => r.status < 200 || r.status >= 300)).toEqual([]);
    expect(during.length).toBeGreaterThanOrEqual(40);
    expect(created.length).toBeGreaterThanOrEqual(10);

    // It replayed the log up to where the live projector stood at the swap, reporting as it went.
    expect(result.events).toBe(await eventsUpTo(result.position));
    expect(result.events).toBeGreaterThanOrEqual(before.ledger_postings.length);
    expect(reports.length).toBeGreaterThan(1);
    // What the projector did meanwhile is applied under its lock: one swap attempt, not a chase after
    // a projector that never stands still under steady writes.
    expect(result.swapAttempts).toBe(1);
    expect(reports[reports.length - 1]).toEqual({ events: result.events, position: result.position, target: result.target });
    expect(reports.map((r) => r.events)).toEqual([...reports.map((r) => r.events)].sort((a, b) => a - b));
    expect(await shadowSchemaExists()).toBe(false);

    // The new escrows are served from the swapped-in tables: the live projector kept applying.
    await quiescent();
    for (const { escrowId, merchant } of created) {
      const res = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: as(merchant) });
      expect({ escrowId, status: res.status, escrowStatus: res.body?.data?.status }).toEqual({ escrowId, status: 200, escrowStatus: 'PENDING' });
    }

    // Everything that existed before is exactly as it was; the only additions are the escrows created during the rebuild.
    const after = await snapshot(db);
    const createdIds = new Set(created.map((c) => c.escrowId));
    const added = after.payables_view.filter((row) => createdIds.has(JSON.parse(row).payable_id as string));
    expect(added).toHaveLength(created.length);
    const ownedByAdded = after.stream_owners.filter((row) => createdIds.has((JSON.parse(row).stream_id as string).replace('escrow-', '')));
    expect(ownedByAdded).toHaveLength(created.length);
    const withoutAdded = {
      ...after,
      payables_view: after.payables_view.filter((row) => !added.includes(row)),
      stream_owners: after.stream_owners.filter((row) => !ownedByAdded.includes(row)),
    };
    expect(differences(before, withoutAdded)).toEqual([]);
    expect(await indexDefinitions(db, schema)).toEqual(indexesBefore);
    const checkpointAfter = await db.query<{ name: string }>(`SELECT name FROM projection_checkpoints ORDER BY name`);
    expect(checkpointAfter.map((c) => c.name)).toEqual(checkpointBefore.map((c) => c.name));

    // And the projector keeps writing into the new tables after the swap.
    const m = merchants[0];
    const res = await post(m, '/v1/trdp/escrow/order', escrowRequest({ callbackURL }));
    expect(res.status).toBe(201);
    const escrowId: string = res.body.data.escrowId;
    expectOk(await post(m, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' }), 'paying after the rebuild');
    const get = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: as(m) });
    expect(get.body.data.status).toBe('HELD');
    const [row] = await db.query<{ status: string }>(`SELECT status FROM payables_view WHERE payable_id = $1`, [escrowId]);
    expect(row.status).toBe('HELD');
    // The ledger is the projector's alone (the escrow's row above was written with the payment's events).
    const postings = await waitFor(async () => {
      const rows = await db.query(`SELECT account FROM ledger_postings WHERE account = $1`, [`escrow:${escrowId}`]);
      return rows.length > 0 && rows;
    }, 'the projector to post the payment');
    expect(postings).toHaveLength(1);
  });

  it('rebuilds the ledger alone (it folds what it needs and reads no view), leaving every table equal', async () => {
    await quiescent();
    const live = await snapshot(db);
    const indexes = await indexDefinitions(db, schema);
    const selected = selectForRebuild(CORE_PROJECTIONS, ['ledger']);
    expect(selected.map((p) => p.name)).toEqual(['ledger']);

    const tablesOf = async () =>
      new Map(
        (
          await db.query<{ table_name: string; oid: string }>(
            `SELECT c.relname AS table_name, c.oid::text AS oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = $1 AND c.relname = ANY($2::text[])`,
            [schema, TABLE_NAMES],
          )
        ).map((r) => [r.table_name, r.oid]),
      );
    const oidsBefore = await tablesOf();
    const result = await rebuildProjections(appDb, store, schema, selected);
    const oidsAfter = await tablesOf();

    expect(result.events).toBe(await eventsUpTo(result.position));
    expect(await shadowSchemaExists()).toBe(false);
    // Exactly the selected projections' tables were replaced; the others are the very same tables.
    const replaced = TABLE_NAMES.filter((t) => oidsBefore.get(t) !== oidsAfter.get(t)).sort();
    expect(replaced).toEqual(['ledger_balances', 'ledger_entries', 'ledger_postings', 'ledger_tenant_modes']);
    expect(differences(live, await snapshot(db))).toEqual([]);
    expect(await indexDefinitions(db, schema)).toEqual(indexes);

    const trial = await call(running.baseUrl, 'GET', '/v1/audit/ledger/trial-balance?mode=test', { headers: { 'x-admin-key': 'test-admin-key-0123456789' } });
    expect(trial.status).toBe(200);
    expect(trial.body.data.balanced).toBe(true);
    expect(formatPosition(result.position)).toMatch(/^\d+-\d+$/);
  });

  it('refuses to rebuild an unknown projection', () => {
    expect(() => selectForRebuild(CORE_PROJECTIONS, ['nope'])).toThrow(/unknown projection nope/);
    expect(selectForRebuild(CORE_PROJECTIONS, []).map((p) => p.name)).toEqual(CORE_PROJECTIONS.map((p) => p.name));
  });
});
