'use strict';
const autocannon = require('autocannon');
const { Resources } = require('./bench/lib/infrastructure');
const { Deployment, registerMerchant } = require('./bench/lib/service');
const { stop } = require('./bench/lib/processes');
const { cpuMeter } = require('./bench/lib/cpu');
const { escrowBody } = require('./bench/load/payloads');
(async () => {
  const resources = new Resources();
  try {
    const d = await Deployment.create(resources, 'exp', { cpuProfileDir: process.env.PROF });
    const { baseUrl, proc } = await d.startApi({ ROLE: 'api' });
    await d.startWorker('projector'); await d.startWorker('worker');
    const m = await registerMerchant(baseUrl);
    const r = { method: 'POST', path: '/v1/trdp/escrow/order', idReplacement: true, headers: { 'content-type': 'application/json', 'x-api-secret': m.apiSecret }, body: JSON.stringify(escrowBody('exp-[<id>]')) };
    const conn = Number(process.env.CONN || 50);
    await autocannon({ connections: conn, duration: 2, ...r, url: baseUrl + r.path });
    const meter = cpuMeter(d.roles, { postgres: true });
    const res = await autocannon({ connections: conn, duration: Number(process.env.DUR || 5), ...r, url: baseUrl + r.path });
    console.log('req/s', Math.round(res.requests.average), '2xx', res['2xx'], JSON.stringify(meter.perUnit(res.requests.total)));
  } finally { await resources.release(stop); }
})();
