'use strict';
const { ALLOCATIONS } = require('../load/payloads');
const { describeCpu } = require('../lib/cpu');
const { lifecyclesPerSecond, scenarioResult } = require('../lib/result');

/** create + pay + one release per allocation */
const REQUESTS_PER_LIFECYCLE = 2 + ALLOCATIONS.length;

/**
 * Whole escrow lifecycles per second (50 connections, each walking its escrows through create, pay
 * and every release), against as many single INSERTs per second as those lifecycles make requests.
 */
module.exports = {
  id: 'lifecycle',
  title: 'full escrow lifecycle',
  async run(ctx) {
    const main = await ctx.main();
    const insert = await ctx.bareInserts();
    const ours = await ctx.cannon(main.baseUrl, 'lifecycle', { apiSecret: main.merchant.apiSecret, payees: main.merchant.payees }, main.deployment.roles);
    return scenarioResult({
      id: this.id,
      title: this.title,
      unit: 'lifecycles/s',
      ours: {
        name: `create, pay, ${ALLOCATIONS.length} releases`,
        measured: { value: lifecyclesPerSecond(ours, REQUESTS_PER_LIFECYCLE), p50: ours.p50, p99: ours.p99 },
      },
      reference: {
        name: `${REQUESTS_PER_LIFECYCLE} single INSERTs`,
        measured: { value: insert.perSecond / REQUESTS_PER_LIFECYCLE, p50: insert.p50, p99: insert.p99 },
      },
      target: 0.4,
      failures: ours.non2xx + ours.errors,
      cpuPerRequest: ours.cpuPerRequest,
      referenceCpuPerRequest: insert.cpuPerRequest,
      notes: [describeCpu(ours.cpuPerRequest, insert.cpuPerRequest)].filter(Boolean),
    });
  },
};
