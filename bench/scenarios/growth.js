'use strict';
const { scenarioResult } = require('../lib/result');
const { eventCount, finishedEscrow, label, moveFollowersToHead } = require('../lib/seed');
const { Deployment, registerMarketplace } = require('../lib/service');
const { ALLOCATIONS } = require('../load/payloads');

/** Events per seeded escrow: the template's whole life (created, paid, each allocation released). */
const EVENTS_PER_ESCROW = 2 + ALLOCATIONS.length;

/**
 * Adds finished escrows to the log straight in SQL, fast: copies of the template escrow's events
 * (its whole lifecycle, a stream per copy) and of its final payables_view row, then moves every
 * follower's checkpoint past them, as if the projector and dispatcher had long since applied them.
 * The copies' ledger postings are left out: the command path measured here never reads them.
 */
async function seed(deployment, templateId, from, to) {
  const params = [templateId, from, to];
  await deployment.query(
    `WITH template AS (SELECT stream_revision, event_type, data, metadata, hash FROM events WHERE stream_id = 'escrow-' || $1),
     new_streams AS (
       INSERT INTO streams (stream_id, revision)
       SELECT 'escrow-esc_seed_' || g, (SELECT max(stream_revision) FROM template) FROM generate_series($2::int, $3::int) g)
     INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
     SELECT 'escrow-esc_seed_' || g, t.stream_revision, gen_random_uuid(), t.event_type,
       CASE WHEN t.data ? 'escrowId' THEN jsonb_set(t.data, '{escrowId}', to_jsonb('esc_seed_' || g)) ELSE t.data END,
       t.metadata, now() - interval '1 day', t.hash
     FROM generate_series($2::int, $3::int) g, template t ORDER BY g, t.stream_revision`,
    params,
  );
  await deployment.query(
    `INSERT INTO payables_view (payable_id, kind, merchant_id, merchant_order_id, status, payment_status, amount, expires_at, created_at, updated_at, document)
     SELECT 'esc_seed_' || g, t.kind, t.merchant_id, 'seed-' || g, t.status, t.payment_status, t.amount, t.expires_at, t.created_at, t.updated_at,
       t.document || jsonb_build_object('id', 'esc_seed_' || g, 'merchantOrderId', 'seed-' || g)
     FROM generate_series($2::int, $3::int) g, (SELECT * FROM payables_view WHERE payable_id = $1) t`,
    params,
  );
  await moveFollowersToHead(deployment);
  // A log that grew over months is vacuumed and on disk: settle the bulk load now, not during the measurement.
  await deployment.query('VACUUM (ANALYZE) streams, events, payables_view');
  await deployment.query('CHECKPOINT');
}

/** Create-escrow p99 with a large log against the same with a small one: indexes must keep it flat. */
module.exports = {
  id: 'growth',
  title: 'growth: create-escrow p99',
  async run(ctx) {
    const { small, large } = ctx.settings.growth;
    const deployment = await Deployment.create(ctx.resources, 'growth');
    let api = await deployment.startApi();
    const merchant = await registerMarketplace(api.baseUrl);
    const template = await finishedEscrow(api.baseUrl, merchant, 'growth-template');
    await deployment.stopAll();

    let seeded = 0;
    const measureAt = async (events) => {
      const escrows = Math.ceil((events - (await eventCount(deployment))) / EVENTS_PER_ESCROW);
      ctx.log(`  seeding ${escrows} finished escrows (${escrows * EVENTS_PER_ESCROW} events, to about ${events})`);
      if (escrows > 0) await seed(deployment, template, seeded + 1, seeded + escrows);
      seeded += Math.max(0, escrows);
      api = await deployment.startApi();
      const result = await ctx.cannon(api.baseUrl, 'create-escrow', { apiSecret: merchant.apiSecret });
      await deployment.stopAll();
      return result;
    };
    const reference = await measureAt(small);
    const ours = await measureAt(large);
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
