'use strict';
/** The service under test: the built API and worker as separate production processes on a schema of their own. */
const { randomBytes } = require('node:crypto');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { DATABASE_URL, REDIS_URL, urlWithSchema, withClient } = require('./infrastructure');
const { freePort, spawnService, stop, waitForHttp, waitForOutput } = require('./processes');
const { ALLOCATIONS } = require('../load/payloads');

const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
const SECRETS_KEY = randomBytes(32).toString('hex');

/** One deployment: a schema, a Redis prefix, and the processes started on them. */
class Deployment {
  constructor(resources, schema, redisPrefix, options = {}) {
    this.resources = resources;
    this.schema = schema;
    this.redisPrefix = redisPrefix;
    this.cpuProfileDir = options.cpuProfileDir;
    this.dataDir = resources.directory(mkdtempSync(join(tmpdir(), 'bench-data-')));
    this.processes = [];
    /** The processes by role (api, projector, worker), for CPU accounting. */
    this.roles = {};
  }

  static async create(resources, name, options) {
    return new Deployment(resources, await resources.schema(`bench_${name}`), resources.redisPrefix(`bench-${name}`), options);
  }

  env(extra = {}) {
    return {
      DATABASE_URL,
      DATABASE_SCHEMA: this.schema,
      REDIS_URL,
      REDIS_PREFIX: this.redisPrefix,
      ADMIN_API_KEY: ADMIN_KEY,
      SECRETS_KEY,
      DATA_DIR: this.dataDir,
      DEMO_MERCHANT: 'false',
      RATE_LIMIT_PER_MINUTE: '0',
      CALLBACK_ALLOW_PRIVATE_URLS: 'true',
      HOST: '127.0.0.1',
      ...extra,
    };
  }

  /** With --cpu-prof, every process of the deployment writes a profile when it stops, in <dir>/<schema>-<role>/. */
  nodeArgs(role) {
    return this.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(this.cpuProfileDir, `${this.schema}-${role}`)}`] : [];
  }

  /** The API (ROLE=all unless told otherwise); resolves once it answers HTTP. */
  async startApi(extra = {}) {
    const port = await freePort();
    const proc = this.resources.track(spawnService('api', this.env({ PORT: String(port), ...extra }), { nodeArgs: this.nodeArgs(extra.ROLE ?? 'all') }));
    this.processes.push(proc);
    this.roles.api ??= proc;
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(`${baseUrl}/health/live`, proc);
    return { proc, baseUrl };
  }

  /** A process without HTTP (ROLE=worker or projector); resolves once it reports ready. */
  async startWorker(role, extra = {}) {
    const proc = this.resources.track(spawnService('worker', this.env({ ROLE: role, ...extra }), { nodeArgs: this.nodeArgs(role) }));
    this.processes.push(proc);
    this.roles[role] ??= proc;
    await waitForOutput(proc, 'worker ready');
    return proc;
  }

  /** A query on this deployment's schema, from outside the service (seeding, counting). */
  query(sql, params) {
    return withClient((client) => client.query(sql, params), urlWithSchema(this.schema));
  }

  async stopAll() {
    for (const proc of this.processes.splice(0)) await stop(proc);
  }
}

async function registerMerchant(baseUrl, name = 'Bench Marketplace') {
  const response = await fetch(`${baseUrl}/v1/admin/merchants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-key': ADMIN_KEY },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 201) throw new Error(`registering a merchant failed: ${response.status} ${await response.text()}`);
  return (await response.json()).data;
}

/**
 * A merchant with the sellers the bench's escrows allocate to (bench/load/payloads.js) onboarded as
 * its accounts under those references, since an allocation must name someone who can be paid. An
 * escrow stores each as its accountId, which releases name: `payees` maps reference to accountId.
 */
async function registerMarketplace(baseUrl, name = 'Bench Marketplace') {
  const merchant = await registerMerchant(baseUrl, name);
  const payees = {};
  for (const { merchantId: reference, metadata } of ALLOCATIONS) {
    payees[reference] = (await post(baseUrl, '/v1/trdp/accounts', merchant.apiSecret, { name: metadata.merchantName, type: 'individual', reference })).data.accountId;
  }
  return { ...merchant, payees };
}

/** A JSON POST as a merchant; throws unless the status is one of `expected`. */
async function post(baseUrl, path, apiSecret, body, expected = [200, 201]) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-secret': apiSecret },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!expected.includes(response.status)) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** A GET as the operator (the admin key, which the audit API also accepts); throws unless it answers 200. */
async function adminGet(baseUrl, path) {
  const response = await fetch(`${baseUrl}${path}`, { headers: { 'x-admin-key': ADMIN_KEY } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** Runs `work(i)` for i < count with `concurrency` in flight. */
async function inParallel(count, concurrency, work) {
  let next = 0;
  const lane = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

module.exports = { Deployment, adminGet, registerMarketplace, registerMerchant, post, inParallel };
