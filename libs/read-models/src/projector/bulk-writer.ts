import type { SqlExecutor } from '@app/database';
import type { BulkWriter, TableRow } from './projection';

const values = (columns: readonly string[], rows: readonly TableRow[]) => rows.map((row) => columns.map((column) => row[column]));

/** A rebuild's writer within one batch's transaction, with the copies first on its search path. */
export function bulkWriter(tx: SqlExecutor): BulkWriter {
  return {
    query: (sql, params) => tx.query(sql, params),
    async append(table, columns, rows) {
      await tx.copyRows(table, columns, values(columns, rows));
    },
    async merge(table, columns, rows, { key, set }) {
      if (rows.length === 0) return;
      // Temporary: nothing but this transaction sees it, and nothing of it outlives the transaction.
      const staging = `pg_temp.${table}__merged`;
      const list = columns.join(', ');
      await tx.query(`CREATE TABLE ${staging} (LIKE ${table}) ON COMMIT DROP`);
      await tx.copyRows(staging, columns, values(columns, rows));
      await tx.query(
        `INSERT INTO ${table} (${list}) SELECT ${list} FROM ${staging}
         ON CONFLICT (${key.join(', ')}) DO ${set === undefined ? 'NOTHING' : `UPDATE SET ${set}`}`,
      );
      // Dropped now as well: the swap's catch-up applies several batches in one transaction.
      await tx.query(`DROP TABLE ${staging}`);
    },
  };
}
