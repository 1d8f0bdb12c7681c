'use strict';
/** What scenarios share within one run: settings, resources, and the deployments several of them use. */
const { join } = require('node:path');
const { cpuMeter } = require('./cpu');
const { urlWithSchema } = require('./infrastructure');
const { freePort, runJson, spawnNode, waitFor, waitForOutput } = require('./processes');
const { Deployment, registerMarketplace } = require('./service');

const CANNON = join(__dirname, '..', 'load', 'cannon.js');

class RunContext {
  constructor(settings, resources, log, options = {}) {
    this.settings = settings;
    this.resources = resources;
    this.log = log;
    this.cpuProfileDir = options.cpuProfileDir;
    this.measured = {};
    this.mainDeployment = undefined;
    this.bareServer = undefined;
  }

  /** The service as deployed in production (an API, a projector and a worker process) with one merchant. */
  async main() {
    if (!this.mainDeployment) {
      const deployment = await Deployment.create(this.resources, 'main', { cpuProfileDir: this.cpuProfileDir });
      const { baseUrl } = await deployment.startApi({ ROLE: 'api' });
      await deployment.startWorker('projector');
      await deployment.startWorker('worker');
      const merchant = await registerMarketplace(baseUrl);
      this.mainDeployment = { deployment, baseUrl, merchant };
    }
    return this.mainDeployment;
  }

  /** The bare Fastify + pg reference server, on a schema of its own. */
  async bare() {
    if (!this.bareServer) {
      const schema = await this.resources.schema('bench_bare');
      const port = await freePort();
      const proc = this.resources.track(
        spawnNode(join(__dirname, '..', 'references', 'bare-server.js'), { PORT: String(port), DATABASE_URL: urlWithSchema(schema) }),
      );
      await waitForOutput(proc, 'bare server ready');
      this.bareServer = { proc, baseUrl: `http://127.0.0.1:${port}`, schema };
    }
    return this.bareServer;
  }

  /** The bare server's single INSERTs (CPU metered), measured once per run: create escrow and the lifecycle both compare with them. */
  async bareInserts() {
    if (!this.measured.insert) {
      const bare = await this.bare();
      this.measured.insert = await this.cannon(bare.baseUrl, 'insert', {}, { server: bare.proc });
    }
    return this.measured.insert;
  }

  /**
   * Waits until each of the service's processes is idle (under 5 % of a core for half a second), so
   * that what seeding or the last measurement left it to do (the worker following the log, say)
   * neither weighs on the next measurement nor is counted in it. Gives up after `timeoutMs`, saying so.
   */
  async settle(timeoutMs = 60_000) {
    const { deployment } = await this.main();
    try {
      await waitFor(
        async () => {
          const meter = await cpuMeter(deployment.roles);
          await new Promise((resolve) => setTimeout(resolve, 500));
          return Object.values(await meter.perUnit(1)).every((ms) => ms < 25);
        },
        'the service to go idle',
        timeoutMs,
        0,
      );
    } catch {
      this.log(`  the service was still busy after ${timeoutMs / 1000} s; measuring anyway`);
    }
  }

  /**
   * autocannon in its own process, after a warm-up; `extra` adds the workload's inputs (API secret,
   * ids). With `metered` (processes by name), the result also has `cpuPerRequest`: their CPU and that of the
   * PostgreSQL backends serving their connections (cpu.js), per request, warm-up included.
   */
  async cannon(url, workload, extra = {}, metered = undefined) {
    const { connections, warmupSeconds, durationSeconds, requests } = this.settings;
    const cpu = metered && (await cpuMeter(metered, { postgres: true }));
    const result = await runJson(CANNON, { url, workload, connections, warmup: warmupSeconds, duration: durationSeconds, amount: requests, ...extra });
    return cpu ? { ...result, cpuPerRequest: await cpu.perUnit(result.requests + result.warmupRequests) } : result;
  }
}

module.exports = { RunContext };
