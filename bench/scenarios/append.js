'use strict';
const { join } = require('node:path');
const { DATABASE_URL } = require('../lib/infrastructure');
const { runJson } = require('../lib/processes');
const { scenarioResult } = require('../lib/result');

const APPEND = join(__dirname, '..', 'load', 'append.js');

/** Our PostgreSQL adapter against Emmett's on the same database: one event per append, 50 writers, new streams. */
module.exports = {
  id: 'append',
  title: 'event-store append, 50 concurrent writers',
  async run(ctx) {
    const { appendWriters, appendWarmupSeconds, appendSeconds } = ctx.settings;
    const load = async (store) => {
      const schema = await ctx.resources.schema(`bench_${store}`);
      const result = await runJson(APPEND, { store, url: DATABASE_URL, schema, writers: appendWriters, warmup: appendWarmupSeconds, duration: appendSeconds });
      await ctx.resources.dropSchema(schema);
      return result;
    };
    const reference = await load('emmett');
    const ours = await load('ours');
    return scenarioResult({
      id: this.id,
      title: this.title,
      unit: 'appends/s',
      ours: { name: 'PostgresEventStore', measured: { value: ours.perSecond, p50: ours.p50, p99: ours.p99 } },
      reference: { name: 'Emmett PostgreSQL event store', measured: { value: reference.perSecond, p50: reference.p50, p99: reference.p99 } },
      target: 1.0,
    });
  },
};
