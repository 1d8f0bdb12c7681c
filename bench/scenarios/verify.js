'use strict';
const { describeCpu } = require('../lib/cpu');
const { scenarioResult } = require('../lib/result');
const { inParallel, post } = require('../lib/service');
const { escrowBody } = require('../load/payloads');

const IDS = 1000;

/** POST /v1/trdp/verify on a warm read model, against one SELECT by primary key. */
module.exports = {
  id: 'verify',
  title: 'verify, 50 connections',
  async run(ctx) {
    const main = await ctx.main();
    const bare = await ctx.bare();
    // Run alone (--only verify), nothing has created escrows yet: create some on both sides first.
    const seed = async (create) => inParallel(IDS / 4, 10, (i) => create(`verify-${i}`));
    const { rows: any } = await main.deployment.query("SELECT 1 FROM payables_view WHERE kind = 'escrow' LIMIT 1");
    if (any.length === 0) await seed((orderId) => post(main.baseUrl, '/v1/trdp/escrow/order', main.merchant.apiSecret, escrowBody(orderId)));
    if ((await (await fetch(`${bare.baseUrl}/ids?limit=1`)).json()).length === 0) {
      await seed((orderId) => fetch(`${bare.baseUrl}/escrows`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(escrowBody(orderId)) }));
    }
    const { rows } = await main.deployment.query(`SELECT payable_id AS escrow_id FROM payables_view WHERE kind = 'escrow' ORDER BY random() LIMIT ${IDS}`);
    const ours = await ctx.cannon(main.baseUrl, 'verify', { apiSecret: main.merchant.apiSecret, ids: rows.map((row) => row.escrow_id) }, main.deployment.roles);
    const bareIds = await (await fetch(`${bare.baseUrl}/ids?limit=${IDS}`)).json();
    const reference = await ctx.cannon(bare.baseUrl, 'select', { ids: bareIds }, { server: bare.proc });
    return scenarioResult({
      id: this.id,
      title: this.title,
      unit: 'requests/s',
      ours: { name: 'POST /v1/trdp/verify', measured: { value: ours.perSecond, p50: ours.p50, p99: ours.p99 } },
      reference: { name: 'Fastify + pg, one SELECT by key', measured: { value: reference.perSecond, p50: reference.p50, p99: reference.p99 } },
      target: 0.6,
      failures: ours.non2xx + ours.errors + reference.non2xx + reference.errors,
      cpuPerRequest: ours.cpuPerRequest,
      referenceCpuPerRequest: reference.cpuPerRequest,
      notes: [describeCpu(ours.cpuPerRequest, reference.cpuPerRequest)].filter(Boolean),
    });
  },
};
