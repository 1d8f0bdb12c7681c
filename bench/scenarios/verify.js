'use strict';
const { scenarioResult } = require('../lib/result');

const IDS = 1000;

/** POST /v1/trdp/verify on a warm read model, against one SELECT by primary key. */
module.exports = {
  id: 'verify',
  title: 'verify, 50 connections',
  async run(ctx) {
    const main = await ctx.main();
    const bare = await ctx.bare();
    const { rows } = await main.deployment.query(`SELECT escrow_id FROM escrows_view ORDER BY random() LIMIT ${IDS}`);
    const ours = await ctx.cannon(main.baseUrl, 'verify', { apiSecret: main.merchant.apiSecret, ids: rows.map((row) => row.escrow_id) });
    const bareIds = await (await fetch(`${bare.baseUrl}/ids?limit=${IDS}`)).json();
    const reference = await ctx.cannon(bare.baseUrl, 'select', { ids: bareIds });
    return scenarioResult({
      id: this.id,
      title: this.title,
      unit: 'requests/s',
      ours: { name: 'POST /v1/trdp/verify', measured: { value: ours.perSecond, p50: ours.p50, p99: ours.p99 } },
      reference: { name: 'Fastify + pg, one SELECT by key', measured: { value: reference.perSecond, p50: reference.p50, p99: reference.p99 } },
      target: 0.6,
      failures: ours.non2xx + ours.errors + reference.non2xx + reference.errors,
    });
  },
};
