'use strict';
/**
 * The peers (bench/peers/): the same create escrow and release, as others would build them, each run
 * as its own process on a schema of its own in the same PostgreSQL. `written` counts what a peer
 * stored, and `check` holds it to what it answered: a peer that answers without writing fails the run.
 */
const { join } = require('node:path');
const { ALLOCATIONS } = require('../load/payloads');
const { describeCpu } = require('./cpu');
const { urlWithSchema, withClient } = require('./infrastructure');
const { freePort, spawnNode, stop, waitForOutput } = require('./processes');
const { scenarioResult } = require('./result');

const count = async (client, table, where = '') => Number((await client.query(`SELECT count(*) AS n FROM ${table} ${where}`)).rows[0].n);

/**
 * Every 2xx of a peer wrote one event (a create its EscrowCreated, a release its AllocationReleased);
 * `inFlight` more may have been written for requests autocannon stopped waiting for at the end of a run.
 */
function oneEventPerAnswer(written, answered, { inFlight }) {
  if (written.events < answered || written.events > answered + inFlight) return `${written.events} events for ${answered} answers`;
  if (written.streams !== written.views) return `${written.streams} streams but ${written.views} escrow views`;
  return undefined;
}

const PEERS = [
  {
    id: 'emmett',
    title: 'Emmett',
    name: 'Emmett: decider, emmett-postgresql, inline Pongo view',
    script: 'emmett-server.js',
    targets: { create: 1.3, lifecycle: 1.0 },
    written: async (client) => ({ events: await count(client, 'emt_messages'), streams: await count(client, 'emt_streams'), views: await count(client, 'escrows') }),
    check: oneEventPerAnswer,
  },
  {
    id: 'crud',
    title: 'CRUD',
    name: 'NestJS + TypeORM: escrow and allocation rows',
    script: 'crud-server.js',
    targets: { create: 1.2, lifecycle: 1.0 },
    written: async (client) => ({
      escrows: await count(client, 'escrows'),
      allocations: await count(client, 'allocations'),
      releasedAllocations: await count(client, 'allocations', 'WHERE released > 0'),
    }),
    // Every 2xx wrote an escrow (a create) or released an allocation, in full (a release).
    check: (written, answered, { inFlight, allocationsPerEscrow }) => {
      const changes = written.escrows + written.releasedAllocations;
      if (changes < answered || changes > answered + inFlight) return `${written.escrows} escrows and ${written.releasedAllocations} released allocations for ${answered} answers`;
      if (written.allocations !== written.escrows * allocationsPerEscrow) return `${written.allocations} allocations for ${written.escrows} escrows`;
      return undefined;
    },
  },
  {
    id: 'minimum',
    title: 'same-guarantees minimum',
    name: 'Fastify + pg: event with its hash, stream row, view row',
    script: 'minimum-server.js',
    targets: { create: 0.8, lifecycle: 0.9 },
    written: async (client) => ({ events: await count(client, 'events'), streams: await count(client, 'streams'), views: await count(client, 'payables_view') }),
    check: oneEventPerAnswer,
  },
];

/**
 * Starts a peer on a fresh schema. `finish()` stops it (once its requests in flight are answered),
 * counts the rows it wrote, removes its schema and returns the counts.
 */
async function startPeer(resources, peer) {
  const schema = await resources.schema(`bench_peer_${peer.id}`);
  const port = await freePort();
  const url = urlWithSchema(schema);
  const proc = resources.track(spawnNode(join(__dirname, '..', 'peers', peer.script), { PORT: String(port), DATABASE_URL: url, SCHEMA: schema, NODE_ENV: 'production' }));
  await waitForOutput(proc, 'peer ready');
  return {
    proc,
    baseUrl: `http://127.0.0.1:${port}`,
    finish: async () => {
      await stop(proc);
      const written = await withClient((client) => peer.written(client), url);
      await resources.dropSchema(schema);
      return written;
    },
  };
}

/**
 * A peer's row beside ours: holds what the peer wrote to what it answered (throwing if it answered
 * without writing), then reports both measurements, each turned into `unit` by `value`.
 */
function peerRow(ctx, peer, written, { id, title, unit, answers, oursName, ours, measured, value, workload }) {
  const broken = peer.check(written, measured.answered2xx, { inFlight: 2 * ctx.settings.connections, allocationsPerEscrow: ALLOCATIONS.length });
  if (broken) throw new Error(`the ${peer.title} peer answered ${measured.answered2xx} ${answers} with 2xx but wrote ${broken}`);
  return scenarioResult({
    id,
    title,
    unit,
    ours: { name: oursName, measured: { value: value(ours), p50: ours.p50, p99: ours.p99 } },
    reference: { name: peer.name, measured: { value: value(measured), p50: measured.p50, p99: measured.p99 } },
    target: peer.targets[workload],
    failures: ours.non2xx + ours.errors + measured.non2xx + measured.errors,
    cpuPerRequest: ours.cpuPerRequest,
    referenceCpuPerRequest: measured.cpuPerRequest,
    notes: [describeCpu(ours.cpuPerRequest, measured.cpuPerRequest)].filter(Boolean),
    peer: { id: peer.id, answered: measured.answered2xx, written },
  });
}

/**
 * A row per peer, each from its own minute: starts the peer, measures ours (`measureOurs(peer, i)`)
 * and then the peer (`measurePeer(server)`), each once our service's processes are idle, so that work
 * left from seeding or the measurement before falls into neither figure; `row` names the row (see peerRow).
 */
async function againstEachPeer(ctx, { measureOurs, measurePeer, row }) {
  const rows = [];
  for (const [i, peer] of PEERS.entries()) {
    const server = await startPeer(ctx.resources, peer);
    let ours, measured, written;
    try {
      await ctx.settle();
      ours = await measureOurs(peer, i);
      await ctx.settle();
      measured = await measurePeer(server);
    } finally {
      // Even after a failed measurement: an Emmett schema left behind would break the next Emmett store.
      written = await server.finish();
    }
    rows.push(peerRow(ctx, peer, written, { ...row(peer), ours, measured }));
  }
  return rows;
}

module.exports = { PEERS, againstEachPeer };
