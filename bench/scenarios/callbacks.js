'use strict';
const { join } = require('node:path');
const { REDIS_URL } = require('../lib/infrastructure');
const { freePort, spawnNode, stop, waitFor, waitForOutput } = require('../lib/processes');
const { cpuMeter, describeCpu } = require('../lib/cpu');
const { scenarioResult } = require('../lib/result');
const { Deployment, inParallel, post, registerMarketplace } = require('../lib/service');
const { escrowBody } = require('../load/payloads');

const RECEIVER = join(__dirname, '..', 'references', 'callback-receiver.js');
const BARE_WORKER = join(__dirname, '..', 'references', 'bare-callback-worker.js');

async function startReceiver(ctx, secret) {
  const port = await freePort();
  const proc = ctx.resources.track(spawnNode(RECEIVER, { PORT: String(port), SECRET: secret }));
  await waitForOutput(proc, 'receiver ready');
  const url = `http://127.0.0.1:${port}`;
  return { proc, url, stats: async () => (await fetch(url)).json() };
}

/** From the first verified callback until all `count` arrived (and, for ours, `recorded()` says so too). */
async function drain(receiver, count, recorded = async () => true) {
  let done = 0;
  await waitFor(
    async () => {
      const stats = await receiver.stats();
      if (stats.verified < count || !(await recorded())) return false;
      done = Math.max(stats.last, Date.now() - 25);
      return true;
    },
    `${count} callbacks`,
    600_000,
    25,
  );
  const stats = await receiver.stats();
  if (stats.rejected > 0) throw new Error(`${stats.rejected} callbacks failed signature verification`);
  return { perSecond: count / (Math.max(1, done - stats.first) / 1000) };
}

/**
 * Signed callbacks per second: N paid escrows are waiting in the log when our worker starts; it
 * dispatches, signs, delivers and records every attempt as an event. The reference is a bare BullMQ
 * worker given the same N jobs, signing with HMAC and POSTing with undici, recording nothing. Both
 * deliver to one receiver process that verifies every signature.
 */
module.exports = {
  id: 'callbacks',
  title: 'callback delivery',
  async run(ctx) {
    const count = ctx.settings.callbacks;
    const deployment = await Deployment.create(ctx.resources, 'callbacks', { cpuProfileDir: ctx.cpuProfileDir });
    const { baseUrl } = await deployment.startApi({ ROLE: 'api' });
    await deployment.startWorker('projector');
    const merchant = await registerMarketplace(baseUrl);
    const receiver = await startReceiver(ctx, merchant.webhookSecret);

    ctx.log(`  seeding ${count} paid escrows with a callbackURL`);
    await inParallel(count, 20, async (i) => {
      const created = await post(baseUrl, '/v1/trdp/escrow/order', merchant.apiSecret, escrowBody(`cb-${i}`, receiver.url));
      await post(baseUrl, `/v1/sandbox/orders/${created.data.escrowId}/complete`, merchant.apiSecret, { outcome: 'PAID' });
    });
    const attempts = async () =>
      Number((await deployment.query(`SELECT count(*) AS n FROM events WHERE event_type = 'CallbackAttempted'`)).rows[0].n) >= count;
    const worker = await deployment.startWorker('worker');
    // From the moment it is ready (it may have begun a moment before): its start-up is not a callback's cost.
    const cpu = await cpuMeter(deployment.roles, { postgres: true });
    const ours = await drain(receiver, count, attempts);
    const cpuPerCallback = await cpu.perUnit(count);
    await stop(worker);
    await deployment.stopAll();
    await stop(receiver.proc);

    const bareReceiver = await startReceiver(ctx, merchant.webhookSecret);
    const env = { REDIS_URL, PREFIX: ctx.resources.redisPrefix('bench-bare'), COUNT: String(count), URL: bareReceiver.url, SECRET: merchant.webhookSecret };
    const fill = ctx.resources.track(spawnNode(BARE_WORKER, env, { args: ['fill'] }));
    if ((await fill.exited) !== 0) throw new Error(`queueing the reference's jobs failed:\n${fill.output()}`);
    const bareWorker = ctx.resources.track(spawnNode(BARE_WORKER, env, { args: ['work'] }));
    const reference = await drain(bareReceiver, count);
    await stop(bareWorker);
    await stop(bareReceiver.proc);

    return scenarioResult({
      id: this.id,
      title: this.title,
      unit: 'callbacks/s',
      ours: { name: `worker: ${count} signed, delivered, attempts recorded`, measured: { value: ours.perSecond } },
      reference: { name: 'bare BullMQ worker: HMAC + undici POST', measured: { value: reference.perSecond } },
      target: 0.5,
      cpuPerRequest: cpuPerCallback,
      notes: [describeCpu(cpuPerCallback, {}, 'callback')].filter(Boolean),
    });
  },
};
