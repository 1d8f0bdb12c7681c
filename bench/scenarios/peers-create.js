'use strict';
const { describeCpu } = require('../lib/cpu');
const { PEERS, startPeer } = require('../lib/peers');
const { scenarioResult } = require('../lib/result');
const { ALLOCATIONS } = require('../load/payloads');

/**
 * Create escrow against each peer (bench/peers/): the same request body and autocannon settings,
 * each peer a process of its own on its own schema. Ours is measured right before each peer, so a
 * row's two figures come from the same minute of a machine whose load drifts. One row per peer,
 * each with its own target.
 */
module.exports = {
  id: 'peers-create',
  title: 'create escrow against the peers',
  async run(ctx) {
    const main = await ctx.main();
    const rows = [];
    for (const peer of PEERS) {
      const server = await startPeer(ctx.resources, peer);
      await ctx.settle();
      const ours = await ctx.cannon(main.baseUrl, 'create-escrow', { apiSecret: main.merchant.apiSecret }, main.deployment.roles);
      await ctx.settle();
      const measured = await ctx.cannon(server.baseUrl, 'peer-create', {}, { server: server.proc });
      const written = await server.finish();
      const broken = peer.check(written, measured.answered2xx, { inFlight: 2 * ctx.settings.connections, allocationsPerEscrow: ALLOCATIONS.length });
      if (broken) throw new Error(`the ${peer.title} peer answered ${measured.answered2xx} creates with 2xx but wrote ${broken}`);
      rows.push(
        scenarioResult({
          id: `create-escrow-vs-${peer.id}`,
          title: `create escrow vs ${peer.title}`,
          unit: 'requests/s',
          ours: { name: 'POST /v1/trdp/escrow/order', measured: { value: ours.perSecond, p50: ours.p50, p99: ours.p99 } },
          reference: { name: peer.name, measured: { value: measured.perSecond, p50: measured.p50, p99: measured.p99 } },
          target: peer.target,
          failures: ours.non2xx + ours.errors + measured.non2xx + measured.errors,
          cpuPerRequest: ours.cpuPerRequest,
          referenceCpuPerRequest: measured.cpuPerRequest,
          notes: [describeCpu(ours.cpuPerRequest, measured.cpuPerRequest)].filter(Boolean),
          peer: { id: peer.id, answered: measured.answered2xx, written },
        }),
      );
    }
    return rows;
  },
};
