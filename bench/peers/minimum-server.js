'use strict';
/**
 * The same-guarantees minimum: bare Fastify + `pg` writing, in one statement and so one transaction,
 * exactly the durable rows our create writes: the event (hash-chained as ours: SHA-256 over the
 * canonical JSON of the event and the previous hash), the stream row whose revision guards
 * concurrent writers, and the escrow's view row, readable as soon as the 201 leaves. A release reads
 * the view with the stream's head in one query and writes the same three rows in one statement,
 * expecting the revision it read. The tables are ours, made by our migrations (libs/event-store,
 * libs/read-models), with their indexes; the event's hash, the request's fingerprint and the
 * escrow's id come from our own functions (libs/audit, libs/domain), so its rows stay ours as ours
 * change. Requests are parsed with the rules ours applies (escrow-rules.js); no payments.
 * Env: PORT, DATABASE_URL (its own schema on search_path), SCHEMA (that schema, for the migrations).
 */
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');
const Fastify = require('fastify');
const { Pool } = require('pg');
const { ConflictError, NotFoundError, parseCreateEscrow, parseRelease, releasable, statusAfterRelease } = require('./escrow-rules');

const ours = (lib) => require(join(__dirname, '..', '..', 'dist', 'libs', lib, 'src'));
const { eventHash, GENESIS_HASH } = ours('audit');
const { escrowIdFor, fingerprint } = ours('domain');

const MERCHANT = 'mer_bench';
const ATTEMPTS = 5;

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });

/** Our tables as our migrations make them, so that a change of ours (a column, an index) reaches the minimum too. */
async function createOurTables() {
  const { createPgClient, migrate } = ours('database');
  const { EVENT_STORE_MIGRATIONS } = ours('event-store');
  const { READ_MODEL_MIGRATIONS } = ours('read-models');
  const db = createPgClient({ connectionString: process.env.DATABASE_URL, schema: process.env.SCHEMA, maxConnections: 1 });
  try {
    await migrate(db, process.env.SCHEMA, 'event-store', EVENT_STORE_MIGRATIONS);
    await migrate(db, process.env.SCHEMA, 'read-models', READ_MODEL_MIGRATIONS);
  } finally {
    await db.close();
  }
}

const CREATE = `
  WITH stream AS (INSERT INTO streams (stream_id, revision) VALUES ($1, 0) ON CONFLICT DO NOTHING RETURNING stream_id),
  event AS (
    INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
    SELECT stream_id, 0, $2, 'EscrowCreated', $3, $4, $5, $6 FROM stream RETURNING recorded_at
  )
  INSERT INTO payables_view (payable_id, kind, merchant_id, merchant_order_id, status, payment_status, amount, expires_at, created_at, updated_at, document, auto_release_at, revision)
  SELECT $7, 'escrow', $8, $9, 'PENDING', 'PENDING', $10, $11, recorded_at, recorded_at, $12, $13, 0 FROM event
  RETURNING payable_id`;

const HEAD = `
  SELECT s.revision, e.hash, v.document FROM streams s
  JOIN events e ON e.stream_id = s.stream_id AND e.stream_revision = s.revision
  JOIN payables_view v ON v.payable_id = $2
  WHERE s.stream_id = $1`;

const RELEASE = `
  WITH stream AS (UPDATE streams SET revision = revision + 1 WHERE stream_id = $1 AND revision = $2 RETURNING revision),
  event AS (
    INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
    SELECT $1, revision, $3, 'AllocationReleased', $4, $5, $6, $7 FROM stream RETURNING stream_revision, recorded_at
  )
  UPDATE payables_view SET status = $9, document = $10, updated_at = event.recorded_at, revision = event.stream_revision FROM event WHERE payable_id = $8
  RETURNING payable_id`;

const metadataFor = () => ({ correlationId: randomUUID(), actor: { type: 'merchant', id: MERCHANT } });

async function create(body) {
  const escrow = parseCreateEscrow(body);
  // Ours keys an escrow's id with its merchant's secret salt; the one merchant's id stands in for it here.
  const escrowId = escrowIdFor(MERCHANT, escrow.orderId);
  const streamId = `escrow-${escrowId}`;
  // As ours: a retry of the same request finds the escrow it made; another request under that orderId is refused.
  const requestFingerprint = fingerprint(body);
  const data = { escrowId, merchantId: MERCHANT, ...escrow, requestFingerprint };
  const metadata = metadataFor();
  const recordedAt = new Date();
  const document = {
    ...data,
    kind: 'escrow',
    status: 'PENDING',
    paymentStatus: 'PENDING',
    allocations: escrow.allocations.map((a) => ({ ...a, status: 'PENDING', held: a.amount, released: 0, refunded: 0, fee: a.fee ?? 0, feeEarned: 0, frozen: 0 })),
    releases: [],
  };
  const hash = eventHash({ streamId, revision: 0n, type: 'EscrowCreated', data, metadata, recordedAt }, GENESIS_HASH);
  const { rows } = await pool.query(CREATE, [
    streamId,
    randomUUID(),
    data,
    metadata,
    recordedAt,
    hash,
    escrowId,
    MERCHANT,
    escrow.orderId,
    escrow.amount,
    escrow.expiresAt,
    document,
    escrow.autoReleaseAt ?? null,
  ]);
  if (rows.length > 0) return { status: 201, escrowId, orderId: escrow.orderId };
  const existing = await pool.query(`SELECT data->>'requestFingerprint' AS fingerprint FROM events WHERE stream_id = $1 AND stream_revision = 0`, [streamId]);
  if (existing.rows[0]?.fingerprint !== requestFingerprint) throw new ConflictError('ESCROW_ORDER_CONFLICT', `orderId ${escrow.orderId} was used already`);
  return { status: 200, escrowId, orderId: escrow.orderId };
}

async function release(escrowId, body) {
  const { merchantId, amount: requested } = parseRelease(body);
  const streamId = `escrow-${escrowId}`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { rows } = await pool.query(HEAD, [streamId, escrowId]);
    if (rows.length === 0 || rows[0].document.merchantId !== MERCHANT) throw new NotFoundError(`No escrow ${escrowId}`);
    const { revision, hash: previousHash, document } = rows[0];
    const amount = releasable(document.allocations.find((a) => a.merchantId === merchantId), requested);
    const releasedAt = new Date();
    const data = { merchantId, amount, releasedAt: releasedAt.toISOString() };
    const metadata = metadataFor();
    const next = BigInt(revision) + 1n;
    const allocations = document.allocations.map((a) => {
      if (a.merchantId !== merchantId) return a;
      const released = a.released + amount;
      return { ...a, released, held: a.amount - released, status: released === a.amount ? 'RELEASED' : 'PARTIALLY_RELEASED' };
    });
    const status = statusAfterRelease(allocations);
    const updated = { ...document, status, allocations, releases: [...document.releases, data] };
    const hash = eventHash({ streamId, revision: next, type: 'AllocationReleased', data, metadata, recordedAt: releasedAt }, previousHash);
    const written = await pool.query(RELEASE, [streamId, revision, randomUUID(), data, metadata, releasedAt, hash, escrowId, status, updated]);
    if (written.rows.length > 0) return { escrowId, status, allocations };
  }
  throw new ConflictError('CONCURRENT_MODIFICATION', `${streamId} kept changing while this request was applied; retry it`);
}

async function main() {
  await createOurTables();
  const app = Fastify({ logger: false, bodyLimit: 256 * 1024 });
  app.post('/escrows', async (request, reply) => {
    const { status, ...data } = await create(request.body);
    return reply.status(status).send({ status: 'success', data: { ...data, status: 'PENDING' } });
  });
  app.post('/escrows/:escrowId/release', async (request) => ({ status: 'success', data: await release(request.params.escrowId, request.body) }));
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.stdout.write('peer ready\n');
  process.on('SIGTERM', () => app.close().then(() => pool.end()).then(() => process.exit(0)));
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
