'use strict';
const { describeCpu } = require('../lib/cpu');
const { scenarioResult } = require('../lib/result');

/** POST /v1/trdp/escrow/order (3 allocations), read-your-writes included, against one durable INSERT per request. */
module.exports = {
  id: 'create-escrow',
  title: 'create escrow (3 allocations), 50 connections',
  async run(ctx) {
    const main = await ctx.main();
    const reference = await ctx.bareInserts();
    const ours = await ctx.cannon(main.baseUrl, 'create-escrow', { apiSecret: main.merchant.apiSecret }, main.deployment.roles);
    return scenarioResult({
      id: this.id,
      title: this.title,
      unit: 'requests/s',
      ours: { name: 'POST /v1/trdp/escrow/order', measured: { value: ours.perSecond, p50: ours.p50, p99: ours.p99 } },
      reference: { name: 'Fastify + pg, one INSERT', measured: { value: reference.perSecond, p50: reference.p50, p99: reference.p99 } },
      target: 0.5,
      stretch: 1.0,
      failures: ours.non2xx + ours.errors + reference.non2xx + reference.errors,
      cpuPerRequest: ours.cpuPerRequest,
      referenceCpuPerRequest: reference.cpuPerRequest,
      notes: [describeCpu(ours.cpuPerRequest, reference.cpuPerRequest)].filter(Boolean),
    });
  },
};
