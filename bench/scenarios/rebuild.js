'use strict';
const { join } = require('node:path');
const { describeCpu } = require('../lib/cpu');
const { DATABASE_URL } = require('../lib/infrastructure');
const { runJson } = require('../lib/processes');
const { round, scenarioResult } = require('../lib/result');

const REBUILD = join(__dirname, '..', 'load', 'rebuild.js');

/** Fewer events than this and the scenarios that write the log did not run before this one. */
const ENOUGH_EVENTS = 1000;

/** CPU ms per event of the process and of its PostgreSQL backends, where /proc told. */
function cpuPerEvent(run) {
  const per = (ms) => (ms === undefined || run.events === 0 ? undefined : round(ms / run.events, 4));
  return Object.fromEntries(
    Object.entries({ process: per(run.processCpuMs), postgres: per(run.postgresCpuMs) }).filter(([, ms]) => ms !== undefined),
  );
}

/**
 * Replays the log the earlier scenarios wrote (escrows created, paid, released) into fresh read
 * models, against only reading the same events table in pages. The service is stopped first. Run
 * alone (`--only rebuild`), it first writes such a log itself with the lifecycle workload, so that
 * it measures a replay rather than a handful of events.
 */
module.exports = {
  id: 'rebuild',
  title: 'projection rebuild',
  async run(ctx) {
    const main = await ctx.main();
    const [{ n }] = (await main.deployment.query('SELECT count(*)::int AS n FROM events')).rows;
    // No warm-up: this only writes the log the replay measures.
    if (n < ENOUGH_EVENTS) await ctx.cannon(main.baseUrl, 'lifecycle', { apiSecret: main.merchant.apiSecret, payees: main.merchant.payees, warmup: 0, duration: ctx.settings.rebuildLogSeconds });
    await main.deployment.stopAll();
    ctx.mainDeployment = undefined;
    const target = { url: DATABASE_URL, schema: main.deployment.schema };
    const reference = await runJson(REBUILD, { mode: 'raw', ...target });
    const ours = await runJson(REBUILD, { mode: 'ours', ...target });
    const cpu = { ours: cpuPerEvent(ours), reference: cpuPerEvent(reference) };
    return scenarioResult({
      id: this.id,
      title: this.title,
      unit: 'events/s',
      ours: { name: `rebuild of ${ours.events} events`, measured: { value: ours.perSecond } },
      reference: { name: 'raw paged read of the events table', measured: { value: reference.perSecond } },
      target: 0.25,
      cpuPerRequest: cpu.ours,
      referenceCpuPerRequest: cpu.reference,
      notes: [describeCpu(cpu.ours, cpu.reference, 'event')].filter(Boolean),
    });
  },
};
