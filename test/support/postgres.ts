import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createPgClient, type SqlClient } from '@app/database';
import { queueSchema } from '@app/scheduling';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Fails with one clear line when the PostgreSQL that integration tests need is not running (a refused connection); a slow one is waited for. */
export async function assertPostgresReachable(): Promise<void> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${TEST_DATABASE_URL} (${(error as Error).message}). ` +
        'Integration tests need a real server: start it (see .ci/run) or set TEST_DATABASE_URL.',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface TestSchema {
  schema: string;
  url: string;
  client: SqlClient;
  drop(): Promise<void>;
}

/** A fresh schema per test file, so parallel runs never see each other's events. */
export async function createTestSchema(prefix = 't'): Promise<TestSchema> {
  await assertPostgresReachable();
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  // Test files run side by side on one server (max_connections 100 by default): each keeps few connections.
  const client = createPgClient({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 6 });
  await client.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  return {
    schema,
    url: TEST_DATABASE_URL,
    client,
    async drop() {
      await client.close();
      const admin = new Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      // The deployment's queues, when it ran BullMQ on PostgreSQL (libs/scheduling/src/queue-connection.ts).
      await admin.query(`DROP SCHEMA IF EXISTS ${queueSchema(schema)} CASCADE`);
      await admin.end();
    },
  };
}
