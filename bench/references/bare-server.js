'use strict';
/**
 * The physical limit for a request that writes or reads one row: Fastify and `pg`, nothing else.
 * POST /escrows inserts the request into a table as wide as payables_view (one durable INSERT);
 * POST /verify selects one row by primary key. Env: PORT, DATABASE_URL (its own schema on search_path).
 */
const { randomUUID } = require('node:crypto');
const Fastify = require('fastify');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });

async function main() {
  await pool.query(`
    CREATE TABLE IF NOT EXISTS escrows (
      escrow_id text PRIMARY KEY,
      merchant_id text NOT NULL,
      merchant_order_id text NOT NULL,
      status text NOT NULL,
      amount bigint NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      state jsonb NOT NULL
    )`);
  const app = Fastify({ logger: false });
  app.post('/escrows', async (request, reply) => {
    const body = request.body;
    const escrowId = `esc_${randomUUID()}`;
    await pool.query(
      `INSERT INTO escrows VALUES ($1, 'bench', $2, 'PENDING', $3, now() + interval '30 minutes', now(), now(), $4)`,
      [escrowId, body.orderId, Math.round(body.amount * 100), body],
    );
    return reply.status(201).send({ status: 'success', data: { escrowId, orderId: body.orderId, status: 'PENDING' } });
  });
  app.post('/verify', async (request, reply) => {
    const { rows } = await pool.query(`SELECT escrow_id, status, amount, updated_at FROM escrows WHERE escrow_id = $1`, [request.body.orderId]);
    if (rows.length === 0) return reply.status(404).send({ status: 'error' });
    return { status: 'success', data: rows[0] };
  });
  app.get('/ids', async (request) => {
    const { rows } = await pool.query(`SELECT escrow_id FROM escrows LIMIT $1`, [Number(request.query.limit ?? 1000)]);
    return rows.map((row) => row.escrow_id);
  });
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.stdout.write('bare server ready\n');
  process.on('SIGTERM', () => app.close().then(() => pool.end()).then(() => process.exit(0)));
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
