'use strict';
const { againstEachPeer } = require('../lib/peers');

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
    return againstEachPeer(ctx, {
      measureOurs: () => ctx.cannon(main.baseUrl, 'create-escrow', { apiSecret: main.merchant.apiSecret }, main.deployment.roles),
      measurePeer: (server) => ctx.cannon(server.baseUrl, 'peer-create', {}, { server: server.proc }),
      row: (peer) => ({
        id: `create-escrow-vs-${peer.id}`,
        workload: 'create',
        title: `create escrow vs ${peer.title}`,
        unit: 'requests/s',
        answers: 'creates',
        oursName: 'POST /v1/trdp/escrow/order',
        value: (result) => result.perSecond,
      }),
    });
  },
};
