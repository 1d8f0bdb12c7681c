'use strict';
const { join } = require('node:path');
const { Resources } = require('./bench/lib/infrastructure');
const { Deployment, registerMerchant } = require('./bench/lib/service');
const { stop, runJson } = require('./bench/lib/processes');
const { cpuMeter } = require('./bench/lib/cpu');
(async () => {
  const resources = new Resources();
  try {
    const d = await Deployment.create(resources, 'exp', { cpuProfileDir: process.env.PROF });
    const { baseUrl } = await d.startApi({ ROLE: 'api' });
    await d.startWorker('projector'); await d.startWorker('worker');
    const m = await registerMerchant(baseUrl);
    const meter = cpuMeter(d.roles, { postgres: true });
    const r = await runJson(join(__dirname, 'bench/load/cannon.js'), { url: baseUrl, workload: process.env.W || 'lifecycle', connections: 50, warmup: 2, duration: 10, apiSecret: m.apiSecret });
    const n = r.requests + r.warmupRequests;
    console.log(process.env.W || 'lifecycle', 'req/s', Math.round(r.perSecond), 'non2xx', r.non2xx, 'per request', JSON.stringify(meter.perUnit(n)));
  } finally { await resources.release(stop); }
})();
