'use strict';
/**
 * Event-store appends, run as its own process: `node bench/load/append.js '<json>'` with
 * {store: 'ours' | 'emmett', url, schema, writers, warmup, duration}. Each writer appends one event
 * at a time, each to a new stream (expected: no stream), like a create command. Prints one JSON line.
 */
const { createHash, randomUUID } = require('node:crypto');
const { join } = require('node:path');
const pg = require('pg');

const input = JSON.parse(process.argv[2]);
const dist = (path) => require(join(__dirname, '..', '..', 'dist', 'libs', path));

/** An event as wide as an EscrowCreated: the escrow request with ids and amounts in santim. */
function eventData(id) {
  return {
    escrowId: id,
    merchantId: 'mer_bench',
    orderId: `bench-${id}`,
    amount: 100050,
    currency: 'ETB',
    customer: { id: 'cus_bench', name: 'Abebe Kebede', phone: '+251911234567', email: 'abebe@example.com' },
    items: [
      { productId: 'sku-1', itemName: 'Coffee 1kg', quantity: 2, unitPrice: 30025, stockUnit: 'kg' },
      { productId: 'sku-2', itemName: 'Delivery', quantity: 1, unitPrice: 40000 },
    ],
    allocations: [
      { merchantId: 'seller-1', amount: 60050, metadata: { merchantName: 'Seller One', purpose: 'goods' } },
      { merchantId: 'seller-2', amount: 25000, metadata: { merchantName: 'Seller Two', purpose: 'goods' } },
      { merchantId: 'courier-1', amount: 15000, metadata: { merchantName: 'Courier', purpose: 'delivery' } },
    ],
    description: 'Marketplace order',
    redirectUrl: 'https://merchant.example/thanks',
    metadata: { cartId: 'c-1' },
    expiresAt: new Date(Date.now() + 1_800_000).toISOString(),
    createdAt: new Date().toISOString(),
  };
}

async function ours() {
  const { createPgClient, migrate } = dist('database/src/index.js');
  const { EVENT_STORE_MIGRATIONS, PostgresEventStore } = dist('event-store/src/index.js');
  const db = createPgClient({ connectionString: input.url, schema: input.schema });
  await migrate(db, input.schema, 'event-store', EVENT_STORE_MIGRATIONS);
  const store = new PostgresEventStore(db);
  const metadata = { correlationId: randomUUID(), actor: { type: 'merchant', id: 'mer_bench' } };
  return {
    append: (id) =>
      store.append(
        `escrow-${id}`,
        [{ id: randomUUID(), type: 'EscrowCreated', data: eventData(id), metadata, recordedAt: new Date(), hash: createHash('sha256').update(id).digest('hex') }],
        'no_stream',
      ),
    close: () => db.close(),
  };
}

async function emmett() {
  const { getPostgreSQLEventStore } = require('@event-driven-io/emmett-postgresql');
  const { STREAM_DOES_NOT_EXIST } = require('@event-driven-io/emmett');
  const url = new URL(input.url);
  url.searchParams.set('options', `-c search_path=${input.schema}`);
  const pool = new pg.Pool({ connectionString: url.toString(), max: 20 });
  const store = getPostgreSQLEventStore(url.toString(), { connectionOptions: { pool } });
  await store.schema.migrate();
  return {
    append: (id) => store.appendToStream(`escrow-${id}`, [{ type: 'EscrowCreated', data: eventData(id) }], { expectedStreamVersion: STREAM_DOES_NOT_EXIST }),
    close: async () => {
      await store.close();
      await pool.end().catch(() => undefined);
    },
  };
}

/** `writers` loops appending until `seconds` pass; returns the count and each append's latency. */
async function drive(store, seconds) {
  const latencies = [];
  const until = Date.now() + seconds * 1000;
  const writer = async () => {
    while (Date.now() < until) {
      const started = performance.now();
      await store.append(`esc_${randomUUID()}`);
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: input.writers }, writer));
  return { latencies, elapsed: (performance.now() - started) / 1000 };
}

function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const store = input.store === 'emmett' ? await emmett() : await ours();
  if (input.warmup > 0) await drive(store, input.warmup);
  const { latencies, elapsed } = await drive(store, input.duration);
  await store.close();
  latencies.sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({ appends: latencies.length, perSecond: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) })}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
