'use strict';
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');
const { Readable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const { from: copyFrom } = require('pg-copy-streams');
const { urlWithSchema, withClient } = require('../lib/infrastructure');
const { ROOT } = require('../lib/processes');
const { scenarioResult } = require('../lib/result');
const { eventCount, finishedEscrow, label, moveFollowersToHead } = require('../lib/seed');
const { adminGet, Deployment, registerMarketplace } = require('../lib/service');

const STREAMS_PER_CHUNK = 500;

const csvField = (value) => `"${String(value).replaceAll('"', '""')}"`;

/**
 * Adds finished escrows to the log, fast: copies of the template escrow's events, each copy a stream
 * of its own whose hash chain holds (sealed with the service's own `eventHash`, from dist/), written
 * with COPY; then moves the followers past them. The check must walk every link, not stop at the
 * first copy.
 */
async function seed(deployment, template, from, to) {
  const { eventHash, GENESIS_HASH } = require(join(ROOT, 'dist/libs/audit/src/hash-chain.js'));
  const recordedAt = new Date(Date.now() - 86_400_000);
  function* chunks() {
    for (let start = from; start <= to; start += STREAMS_PER_CHUNK) {
      const lines = [];
      for (let g = start; g <= Math.min(to, start + STREAMS_PER_CHUNK - 1); g++) {
        const escrowId = `esc_chain_${g}`;
        const streamId = `escrow-${escrowId}`;
        let previousHash = GENESIS_HASH;
        for (const event of template) {
          const data = 'escrowId' in event.data ? { ...event.data, escrowId } : event.data;
          const revision = BigInt(event.stream_revision);
          previousHash = eventHash({ streamId, revision, type: event.event_type, data, metadata: event.metadata, recordedAt }, previousHash);
          const fields = [streamId, revision, randomUUID(), event.event_type, JSON.stringify(data), JSON.stringify(event.metadata), recordedAt.toISOString(), previousHash];
          lines.push(`${fields.map(csvField).join(',')}\n`);
        }
      }
      yield lines.join('');
    }
  }
  await withClient(async (client) => {
    await client.query('BEGIN');
    const copy = client.query(copyFrom('COPY events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash) FROM STDIN WITH (FORMAT csv)'));
    await pipeline(Readable.from(chunks()), copy);
    await client.query(
      `INSERT INTO streams (stream_id, revision) SELECT 'escrow-esc_chain_' || g, $3::bigint FROM generate_series($1::int, $2::int) g`,
      [from, to, template.length - 1],
    );
    await client.query('COMMIT');
  }, urlWithSchema(deployment.schema));
  await moveFollowersToHead(deployment);
  await deployment.query('VACUUM (ANALYZE) streams, events');
  await deployment.query('CHECKPOINT');
}

/** Seconds one GET /v1/audit/integrity takes to answer, checking that every link held. */
async function timedCheck(baseUrl, events) {
  const started = process.hrtime.bigint();
  const { data } = await adminGet(baseUrl, '/v1/audit/integrity');
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (!data.ok || data.eventsChecked < events) throw new Error(`the integrity check answered ${JSON.stringify(data)} over ${events} events`);
  return seconds;
}

/**
 * The integrity check's seconds per 100k events with a large log against a small one: one pass
 * over the log must cost the same per event however long the log is. Each size is checked once to
 * warm up, then measured (the median of three at the small size, where one run is short).
 */
module.exports = {
  id: 'growth-integrity',
  title: 'growth: integrity check time per 100k events',
  async run(ctx) {
    const { small, large } = ctx.settings.growth;
    // A check of the whole log is one long request, answered however long it takes (docs/operations/running.md#timeouts).
    const deployment = await Deployment.create(ctx.resources, 'integrity', { cpuProfileDir: ctx.cpuProfileDir });
    let api = await deployment.startApi();
    const merchant = await registerMarketplace(api.baseUrl);
    const escrowId = await finishedEscrow(api.baseUrl, merchant, 'integrity-template');
    await deployment.stopAll();
    const template = (
      await deployment.query('SELECT stream_revision, event_type, data, metadata FROM events WHERE stream_id = $1 ORDER BY stream_revision', [`escrow-${escrowId}`])
    ).rows;

    let seeded = 0;
    const measureAt = async (size, runs) => {
      const streams = Math.ceil((size - (await eventCount(deployment))) / template.length);
      ctx.log(`  seeding ${streams} finished escrows with their hash chains (to about ${size} events)`);
      if (streams > 0) await seed(deployment, template, seeded + 1, seeded + streams);
      seeded += Math.max(0, streams);
      const events = await eventCount(deployment);
      api = await deployment.startApi();
      await timedCheck(api.baseUrl, events);
      const times = [];
      for (let i = 0; i < runs; i++) times.push(await timedCheck(api.baseUrl, events));
      await deployment.stopAll();
      const seconds = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
      ctx.log(`  ${events} events checked in ${seconds.toFixed(2)} s`);
      return { size, perHundredThousand: (seconds * 1000 * 100_000) / events };
    };
    const reference = await measureAt(small, 3);
    const ours = await measureAt(large, 1);
    return scenarioResult({
      id: this.id,
      title: this.title,
      unit: 'ms per 100k events',
      compare: 'lower',
      ours: { name: `${label(ours.size)} events in the log`, measured: { value: ours.perHundredThousand } },
      reference: { name: `${label(reference.size)} events in the log`, measured: { value: reference.perHundredThousand } },
      target: 1.2,
    });
  },
};
