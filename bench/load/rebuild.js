'use strict';
/**
 * Replays a schema's whole event log, run as its own process: `node bench/load/rebuild.js '<json>'`
 * with {mode: 'ours' | 'raw', url, schema}. `ours` rebuilds every read model into fresh tables and
 * swaps them in (`projections rebuild`); `raw` only reads the events table in pages of 1000.
 * Prints one JSON line: events and events per second.
 */
const { join } = require('node:path');
const { Client } = require('pg');

const input = JSON.parse(process.argv[2]);
const dist = (path) => require(join(__dirname, '..', '..', 'dist', 'libs', path));
const PAGE = 1000;

async function ours() {
  const { createPgClient } = dist('database/src/index.js');
  const { PostgresEventStore } = dist('event-store/src/index.js');
  const { projectionsFor, rebuildProjections } = dist('read-models/src/index.js');
  const db = createPgClient({ connectionString: input.url, schema: input.schema });
  try {
    const started = performance.now();
    const progress = await rebuildProjections(db, new PostgresEventStore(db), input.schema, projectionsFor('postgres'));
    return { events: progress.events, seconds: (performance.now() - started) / 1000 };
  } finally {
    await db.close();
  }
}

async function raw() {
  const client = new Client({ connectionString: input.url });
  await client.connect();
  try {
    await client.query(`SET search_path = ${input.schema}`);
    const started = performance.now();
    let events = 0;
    for (let after = 0; ; ) {
      const { rows } = await client.query(`SELECT * FROM events WHERE global_position > $1 ORDER BY global_position LIMIT ${PAGE}`, [after]);
      if (rows.length === 0) break;
      events += rows.length;
      after = rows[rows.length - 1].global_position;
    }
    return { events, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

(input.mode === 'raw' ? raw() : ours()).then(
  ({ events, seconds }) => process.stdout.write(`${JSON.stringify({ events, perSecond: events / seconds, seconds })}\n`),
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  },
);
