import { PGlite } from '@electric-sql/pglite';
import type { SqlClient, SqlExecutor } from './sql-client';

/**
 * PGlite is one in-process PostgreSQL session: statements are serialised by PGlite itself, so a
 * "session" is the database and a transaction blocks other statements until it ends.
 */
export async function createPgliteClient(dataDir: string | undefined): Promise<SqlClient> {
  const db = await PGlite.create(dataDir);
  const direct: SqlExecutor = {
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const result = await db.query<Row>(sql, params as unknown[]);
      return result.rows;
    },
  };
  return {
    singleConnection: true,
    query: direct.query,
    async transaction(work) {
      return db.transaction(async (tx) =>
        work({
          async query<Row>(sql: string, params?: readonly unknown[]) {
            const result = await tx.query<Row>(sql, params as unknown[]);
            return result.rows;
          },
        }),
      );
    },
    async withSession(work) {
      // The database is in this process: its session cannot be lost on its own.
      return work(direct, new AbortController().signal);
    },
    listen(channel, onNotify) {
      return db.listen(channel, onNotify);
    },
    async exec(sql) {
      await db.exec(sql);
    },
    async close() {
      await db.close();
    },
  };
}
