'use strict';
const { mkdtempSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { PEERS, againstEachPeer } = require('../lib/peers');
const { lifecyclesPerSecond } = require('../lib/result');
const { inParallel, post } = require('../lib/service');
const { ALLOCATIONS, escrowBody } = require('../load/payloads');

/** One create and a release per allocation. */
const REQUESTS_PER_LIFECYCLE = 1 + ALLOCATIONS.length;

/**
 * Escrow lifecycles against each peer: every side creates an escrow and releases each of its
 * allocations, 4 requests. The peers have no payments; ours releases only paid money, so its
 * releases go to escrows created and paid (sandbox) before the measurements, one per lifecycle,
 * while each lifecycle still creates a new escrow. A count of lifecycles (`peerLifecycles`), not a
 * duration, so the paid escrows suffice whatever the speed: the same count for every side. Ours is
 * measured right before each peer, as in peers-create. Our whole lifecycle, payment included, stays
 * in the lifecycle scenario.
 */
module.exports = {
  id: 'peers-lifecycle',
  title: 'escrow lifecycle against the peers',
  async run(ctx) {
    const { warmup, measured: lifecycles } = ctx.settings.peerLifecycles;
    const load = { warmupAmount: warmup * REQUESTS_PER_LIFECYCLE, amount: lifecycles * REQUESTS_PER_LIFECYCLE };

    const main = await ctx.main();
    // A connection cut short by the count may have started one lifecycle more.
    const pool = warmup + lifecycles + 2 * ctx.settings.connections;
    ctx.log(`  creating and paying ${pool * PEERS.length} escrows for our releases`);
    const paid = [];
    await inParallel(pool * PEERS.length, 20, async (i) => {
      const created = await post(main.baseUrl, '/v1/trdp/escrow/order', main.merchant.apiSecret, escrowBody(`peers-paid-${Date.now()}-${i}`));
      await post(main.baseUrl, `/v1/sandbox/orders/${created.data.escrowId}/complete`, main.merchant.apiSecret, { outcome: 'PAID' });
      paid.push(created.data.escrowId);
    });
    const directory = ctx.resources.directory(mkdtempSync(join(tmpdir(), 'bench-paid-')));

    return againstEachPeer(ctx, {
      measureOurs: (peer, i) => {
        const idsFile = join(directory, `paid-${peer.id}.json`);
        writeFileSync(idsFile, JSON.stringify(paid.slice(i * pool, (i + 1) * pool)));
        return ctx.cannon(main.baseUrl, 'lifecycle-prepaid', { apiSecret: main.merchant.apiSecret, payees: main.merchant.payees, idsFile, ...load }, main.deployment.roles);
      },
      measurePeer: (server) => ctx.cannon(server.baseUrl, 'peer-lifecycle', load, { server: server.proc }),
      row: (peer) => ({
        id: `lifecycle-vs-${peer.id}`,
        workload: 'lifecycle',
        title: `lifecycle vs ${peer.title}`,
        unit: 'lifecycles/s',
        answers: 'requests',
        oursName: `create, ${ALLOCATIONS.length} releases of a paid escrow`,
        value: (result) => lifecyclesPerSecond(result, REQUESTS_PER_LIFECYCLE),
      }),
    });
  },
};
