import { PGlite, type Transaction } from '@electric-sql/pglite';
import { type CopyValue, copyText } from './copy-text';
import type { SqlClient, SqlExecutor } from './sql-client';

/** PGlite has no COPY FROM STDIN; it reads a COPY's data from a blob given as '/dev/blob'. */
async function copyRows(db: PGlite | Transaction, table: string, columns: readonly string[], rows: readonly (readonly CopyValue[])[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob'`, [], { blob: new Blob([copyText(rows)]) });
}

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
    copyRows: (table, columns, rows) => copyRows(db, table, columns, rows),
  };
  return {
    singleConnection: true,
    query: direct.query,
    copyRows: direct.copyRows,
    async transaction(work) {
      return db.transaction(async (tx) =>
        work({
          async query<Row>(sql: string, params?: readonly unknown[]) {
            const result = await tx.query<Row>(sql, params as unknown[]);
            return result.rows;
          },
          copyRows: (table, columns, rows) => copyRows(tx, table, columns, rows),
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
