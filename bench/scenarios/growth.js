'use strict';
const { scenarioResult } = require('../lib/result');
const { Deployment, post, registerMerchant } = require('../lib/service');
const { escrowBody } = require('../load/payloads');

/**
 * Adds escrows to the log straight in SQL, fast: copies of a real EscrowCreated event (its own
 * stream each) and of its escrows_view row, then moves every follower's checkpoint past them, as
 * if the projector and dispatcher had long since applied them.
 */
async function seed(deployment, from, to) {
  await deployment.query(
    `WITH template AS (SELECT data, metadata, hash FROM events WHERE event_type = 'EscrowCreated' ORDER BY global_position LIMIT 1),
     new_streams AS (INSERT INTO streams (stream_id, revision) SELECT 'escrow-esc_seed_' || g, 0 FROM generate_series($1::int, $2::int) g)
     INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
     SELECT 'escrow-esc_seed_' || g, 0, gen_random_uuid(), 'EscrowCreated',
       jsonb_set(jsonb_set(t.data, '{escrowId}', to_jsonb('esc_seed_' || g)), '{orderId}', to_jsonb('seed-' || g)),
       t.metadata, now() - interval '1 day', t.hash
     FROM generate_series($1::int, $2::int) g, template t`,
    [from, to],
  );
  await deployment.query(
    `INSERT INTO escrows_view (escrow_id, merchant_id, merchant_order_id, status, amount, expires_at, created_at, updated_at, state)
     SELECT 'esc_seed_' || g, t.merchant_id, 'seed-' || g, t.status, t.amount, t.expires_at, t.created_at, t.updated_at,
       jsonb_set(t.state, '{escrowId}', to_jsonb('esc_seed_' || g))
     FROM generate_series($1::int, $2::int) g, (SELECT * FROM escrows_view ORDER BY created_at LIMIT 1) t`,
    [from, to],
  );
  await deployment.query(
    `INSERT INTO projection_checkpoints (name, commit_position, prepare_position)
     SELECT name, e.transaction_id::text::numeric, e.global_position
     FROM unnest(ARRAY['read-models', 'callback-dispatcher']) name,
       (SELECT transaction_id, global_position FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1) e
     ON CONFLICT (name) DO UPDATE SET commit_position = EXCLUDED.commit_position, prepare_position = EXCLUDED.prepare_position`,
  );
  await deployment.query('ANALYZE streams, events, escrows_view');
}

async function eventCount(deployment) {
  return Number((await deployment.query('SELECT count(*) AS n FROM events')).rows[0].n);
}

/** Create-escrow p99 with a large log against the same with a small one: indexes must keep it flat. */
module.exports = {
  id: 'growth',
  title: 'growth: create-escrow p99',
  async run(ctx) {
    const { small, large } = ctx.settings.growth;
    const deployment = await Deployment.create(ctx.resources, 'growth');
    let api = await deployment.startApi();
    const merchant = await registerMerchant(api.baseUrl);
    await post(api.baseUrl, '/v1/trdp/escrow/order', merchant.apiSecret, escrowBody('growth-template'));
    await deployment.stopAll();

    const measureAt = async (events) => {
      const have = await eventCount(deployment);
      ctx.log(`  seeding ${Math.max(0, events - have)} events (to ${events})`);
      if (events > have) await seed(deployment, have + 1, events);
      api = await deployment.startApi();
      const result = await ctx.cannon(api.baseUrl, 'create-escrow', { apiSecret: merchant.apiSecret });
      await deployment.stopAll();
      return result;
    };
    const reference = await measureAt(small);
    const ours = await measureAt(large);
    const label = (n) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));
    return scenarioResult({
      id: this.id,
      title: this.title,
      unit: 'p99 ms',
      compare: 'lower',
      ours: { name: `${label(large)} events in the log`, measured: { value: ours.p99, p50: ours.p50, p99: ours.p99 } },
      reference: { name: `${label(small)} events in the log`, measured: { value: reference.p99, p50: reference.p50, p99: reference.p99 } },
      target: 1.2,
      failures: ours.non2xx + ours.errors + reference.non2xx + reference.errors,
    });
  },
};
