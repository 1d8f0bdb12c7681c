import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Pool, type PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { isConnectionError } from './connection-errors';
import { type CopyValue, copyText } from './copy-text';
import { PgNotifications } from './pg-notifications';
import { primaryConnection } from './primary-hosts';
import type { SqlClient, SqlExecutor } from './sql-client';

export interface PgClientOptions {
  connectionString: string;
  schema: string;
  maxConnections?: number;
  applicationName?: string;
}

/**
 * Parameterised statements run as named prepared statements: each connection parses and plans a text
 * once, not on every call (most of PostgreSQL's work for a short statement). Texts are named in the
 * order first seen; past the limit (a text built from data would otherwise name a statement per value)
 * they run unnamed.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly limit = 500) {}

  nameFor(sql: string): string | undefined {
    const known = this.names.get(sql);
    if (known !== undefined || this.names.size >= this.limit) return known;
    const name = `s${this.names.size + 1}`;
    this.names.set(sql, name);
    return name;
  }
}

async function copyRows(client: PoolClient, table: string, columns: readonly string[], rows: readonly (readonly CopyValue[])[]): Promise<void> {
  if (rows.length === 0) return;
  await pipeline(Readable.from([copyText(rows)]), client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)));
}

function executor(client: Pool | PoolClient, statements: StatementNames): SqlExecutor {
  return {
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const name = params === undefined ? undefined : statements.nameFor(sql);
      const result = await client.query({ name, text: sql, values: params as unknown[] | undefined });
      return result.rows as Row[];
    },
    async copyRows(table, columns, rows) {
      if (!(client instanceof Pool)) return copyRows(client, table, columns, rows);
      const connection = await client.connect();
      try {
        await copyRows(connection, table, columns, rows);
      } finally {
        connection.release();
      }
    },
  };
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The pool listens for errors only on idle clients. A checked-out client whose server connection
 * ends (a restart, pg_terminate_backend) while no query runs on it emits 'error' with no listener,
 * which would crash the process; while checked out it is watched here instead, and its loss is
 * signalled to whoever holds it.
 */
function watchConnection(client: PoolClient): { signal: AbortSignal; unwatch(): void } {
  const controller = new AbortController();
  const onError = (error: Error) => controller.abort(error);
  client.on('error', onError);
  return { signal: controller.signal, unwatch: () => client.removeListener('error', onError) };
}

export function createPgClient(options: PgClientOptions): SqlClient {
  // With a list of hosts every connection, the pool's and the LISTEN one, goes to the current primary.
  const { config: connection, locator } = primaryConnection(options.connectionString, {
    application_name: options.applicationName ?? 'escrow-ledger',
    // Every connection sees only this deployment's schema, so test runs and tenants can share a server.
    options: `-c search_path=${quoteIdentifier(options.schema)}`,
  });
  const pool = new Pool({ ...connection, max: options.maxConnections ?? 20 });
  const notifications = new PgNotifications(connection);
  // An idle client that loses its server connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const statements = new StatementNames();
  const pooled = executor(pool, statements);
  /** A write refused as read-only: the primary was demoted under this connection, so look for the new one. */
  const onFailure = (error: unknown) => {
    if ((error as { code?: unknown }).code === '25006') locator?.forget();
    return error;
  };

  return {
    singleConnection: false,
    async query<Row>(sql: string, params?: readonly unknown[]) {
      try {
        return await pooled.query<Row>(sql, params);
      } catch (error) {
        throw onFailure(error);
      }
    },
    copyRows: pooled.copyRows,
    async transaction(work) {
      const client = await pool.connect();
      const lost = watchConnection(client);
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await work(executor(client, statements));
        // A COMMIT whose answer is lost (the primary died) rejects: never a success the new primary may lack.
        await client.query('COMMIT');
        return result;
      } catch (error) {
        broken = isConnectionError(onFailure(error));
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        lost.unwatch();
        client.release(broken || lost.signal.aborted);
      }
    },
    async withSession(work) {
      const client = await pool.connect();
      const lost = watchConnection(client);
      let broken = false;
      try {
        return await work(executor(client, statements), lost.signal);
      } catch (error) {
        broken = true;
        throw onFailure(error);
      } finally {
        lost.unwatch();
        // A session that failed may still hold session state (locks); discard it rather than reuse it.
        client.release(broken || lost.signal.aborted);
      }
    },
    listen(channel, onNotify) {
      return notifications.listen(channel, onNotify);
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async close() {
      await notifications.close();
      await pool.end();
    },
  };
}
