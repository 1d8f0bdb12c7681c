'use strict';
/** The local PostgreSQL and Redis a run uses: a fresh schema and key prefix for each part, removed afterwards. */
const { randomBytes } = require('node:crypto');
const { rmSync } = require('node:fs');
const { Client } = require('pg');
const IORedis = require('ioredis').default ?? require('ioredis');

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function uniqueName(prefix) {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** A connection string whose sessions see only `schema` (how the references and Emmett get their own). */
function urlWithSchema(schema) {
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function withClient(work, url = DATABASE_URL) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function createSchema(prefix) {
  const schema = uniqueName(prefix);
  await withClient((c) => c.query(`CREATE SCHEMA ${schema}`));
  return schema;
}

async function dropSchemas(schemas) {
  if (schemas.length === 0) return;
  await withClient(async (c) => {
    for (const schema of schemas) await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });
}

async function serverVersion() {
  return withClient(async (c) => (await c.query('SHOW server_version')).rows[0].server_version);
}

async function dropRedisPrefixes(prefixes) {
  if (prefixes.length === 0) return;
  const redis = new IORedis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    for (const prefix of prefixes) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
}

/** Everything a run created, so it can all be removed at the end (also after a failure). */
class Resources {
  constructor() {
    this.schemas = [];
    this.redisPrefixes = [];
    this.processes = [];
    this.directories = [];
  }

  async schema(prefix) {
    const schema = await createSchema(prefix);
    this.schemas.push(schema);
    return schema;
  }

  /**
   * Removes a schema before the run ends: Emmett's migration looks for its functions in every schema
   * of the database, so a second Emmett store beside a first never gets its own and fails.
   */
  async dropSchema(schema) {
    await dropSchemas([schema]);
    this.schemas = this.schemas.filter((s) => s !== schema);
  }

  redisPrefix(prefix) {
    const name = uniqueName(prefix);
    this.redisPrefixes.push(name);
    return name;
  }

  directory(path) {
    this.directories.push(path);
    return path;
  }

  track(proc) {
    this.processes.push(proc);
    return proc;
  }

  async release(stop) {
    for (const proc of this.processes) await stop(proc);
    await dropSchemas(this.schemas);
    await dropRedisPrefixes(this.redisPrefixes);
    for (const path of this.directories) rmSync(path, { recursive: true, force: true });
  }
}

module.exports = { DATABASE_URL, REDIS_URL, urlWithSchema, withClient, serverVersion, Resources };
