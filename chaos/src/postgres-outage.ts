import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { PostgresProxy } from './postgres-proxy';

const run = promisify(execFile);

/** A way to take PostgreSQL away from the service for a while and give it back. */
export interface PostgresOutage {
  method: 'proxy' | 'pg_ctlcluster';
  /** Resolves once new connections are refused; says what it did, for the timeline. */
  begin(): Promise<string>;
  /** Resolves once PostgreSQL accepts connections again. */
  end(): Promise<string>;
}

/** The default: the proxy cuts the service's connections and refuses new ones; the server itself runs on. */
export function proxyOutage(proxy: PostgresProxy): PostgresOutage {
  return {
    method: 'proxy',
    async begin() {
      return `PostgreSQL outage: the proxy cut ${await proxy.cut()} connections and refuses new ones`;
    },
    async end() {
      await proxy.restore();
      return 'PostgreSQL outage over: the proxy lets connections through again';
    },
  };
}

/**
 * `--restart-postgres`: the local cluster serving `databaseUrl` is stopped (fast shutdown: every
 * session is ended) and started again. Everyone's sessions end, which is why the test suite never
 * does this: other suites share the server.
 */
export async function clusterRestart(databaseUrl: string): Promise<PostgresOutage> {
  const url = new URL(databaseUrl);
  const port = url.port || '5432';
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(url.hostname)) {
    throw new Error(`--restart-postgres restarts a local cluster, but the database is on ${url.hostname}`);
  }
  const { stdout } = await run('pg_lsclusters', ['--no-header']).catch((error: unknown) => {
    throw new Error(`--restart-postgres needs pg_lsclusters (postgresql-common): ${error instanceof Error ? error.message : String(error)}`);
  });
  const cluster = stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[2] === port && fields[3] === 'online');
  if (!cluster) throw new Error(`--restart-postgres: pg_lsclusters lists no online cluster on port ${port}`);
  const [version, name] = cluster;
  return {
    method: 'pg_ctlcluster',
    async begin() {
      await run('pg_ctlcluster', [version, name, 'stop', '-m', 'fast']);
      return `PostgreSQL outage: pg_ctlcluster ${version} ${name} stop -m fast`;
    },
    async end() {
      await run('pg_ctlcluster', [version, name, 'start']);
      return `PostgreSQL outage over: pg_ctlcluster ${version} ${name} start`;
    },
  };
}
