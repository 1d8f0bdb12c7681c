'use strict';
/**
 * Replays a schema's whole event log, run as its own process: `node bench/load/rebuild.js '<json>'`
 * with {mode: 'ours' | 'raw', url, schema}. `ours` rebuilds every read model into fresh tables and
 * swaps them in (`projections rebuild`); `raw` only reads the events table in pages of 1000.
 * Prints one JSON line: events, events per second, and the CPU milliseconds this process and its own
 * PostgreSQL backends spent (from /proc, where the server is on this machine): the machine is shared,
 * and CPU per event moves less with what else runs than events per second do.
 */
const { join } = require('node:path');
const { Client } = require('pg');
const { cpuMs } = require('../lib/cpu');

const input = JSON.parse(process.argv[2]);
const dist = (path) => require(join(__dirname, '..', '..', 'dist', 'libs', path));
const PAGE = 1000;
const APPLICATION = `bench-rebuild-${process.pid}`;

/** This process's CPU ms since `since` (a process.cpuUsage()). */
const ownCpuMs = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/** The CPU ms of the backends serving this process's connections, still open, all since their start. */
async function backendsCpuMs(query) {
  const rows = await query(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, [APPLICATION]);
  const spent = rows.map((row) => cpuMs(row.pid));
  return spent.every((ms) => ms !== undefined) && spent.length > 0 ? spent.reduce((a, b) => a + b, 0) : undefined;
}

async function ours() {
  const { createPgClient } = dist('database/src/index.js');
  const { PostgresEventStore, eventStoreEngine } = dist('event-store/src/index.js');
  const { projectionsFor, rebuildProjections } = dist('read-models/src/index.js');
  const db = createPgClient({ connectionString: input.url, schema: input.schema, applicationName: APPLICATION });
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    // The projections `projections rebuild` takes on the PostgreSQL store (apps/cli/src/main.ts): not the
    // copy of the log a KurrentDB deployment keeps (event_log), which this once rebuilt too, a statement an event.
    const projections = projectionsFor(eventStoreEngine({ eventStore: 'postgres' }));
    const progress = await rebuildProjections(db, new PostgresEventStore(db), input.schema, projections);
    const seconds = (performance.now() - started) / 1000;
    return { events: progress.events, seconds, processCpuMs: ownCpuMs(cpu), postgresCpuMs: await backendsCpuMs((sql, params) => db.query(sql, params)) };
  } finally {
    await db.close();
  }
}

async function raw() {
  const client = new Client({ connectionString: input.url, application_name: APPLICATION });
  await client.connect();
  try {
    await client.query(`SET search_path = ${input.schema}`);
    const started = performance.now();
    const cpu = process.cpuUsage();
    let events = 0;
    for (let after = 0; ; ) {
      const { rows } = await client.query(`SELECT * FROM events WHERE global_position > $1 ORDER BY global_position LIMIT ${PAGE}`, [after]);
      if (rows.length === 0) break;
      events += rows.length;
      after = rows[rows.length - 1].global_position;
    }
    const seconds = (performance.now() - started) / 1000;
    return { events, seconds, processCpuMs: ownCpuMs(cpu), postgresCpuMs: await backendsCpuMs(async (sql, params) => (await client.query(sql, params)).rows) };
  } finally {
    await client.end();
  }
}

(input.mode === 'raw' ? raw() : ours()).then(
  ({ events, seconds, ...cpu }) => process.stdout.write(`${JSON.stringify({ events, perSecond: events / seconds, seconds, ...cpu })}\n`),
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  },
);
