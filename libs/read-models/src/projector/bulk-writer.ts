import type { SqlExecutor } from '@app/database';
import type { BulkWriter, TableRow } from './projection';

const values = (columns: readonly string[], rows: readonly TableRow[]) => rows.map((row) => columns.map((column) => row[column]));

/**
 * A rebuild's writer within one batch's transaction, with the copies first on its search path.
 * `staged` names the tables whose staging copy this rebuild has made already: each is made once per
 * rebuild, in the shadow schema beside the copies (so on whichever connection a batch runs, and dropped
 * with that schema), and emptied after each merge, rather than made and dropped by every batch.
 */
export function bulkWriter(tx: SqlExecutor, staged: Set<string>): BulkWriter {
  return {
    query: (sql, params) => tx.query(sql, params),
    async append(table, columns, rows) {
      await tx.copyRows(table, columns, values(columns, rows));
    },
    async merge(table, columns, rows, { key, set }) {
      if (rows.length === 0) return;
      const staging = `${table}__merged`;
      const list = columns.join(', ');
      if (!staged.has(table)) {
        // Unlogged: nothing in it outlives the batch that filled it, so it needs no crash safety.
        // Its shadow-schema name resolves first on the rebuild's search path.
        await tx.query(`CREATE UNLOGGED TABLE ${staging} (LIKE ${table})`);
        staged.add(table);
      }
      await tx.copyRows(staging, columns, values(columns, rows));
      await tx.query(
        `INSERT INTO ${table} (${list}) SELECT ${list} FROM ${staging}
         ON CONFLICT (${key.join(', ')}) DO ${set === undefined ? 'NOTHING' : `UPDATE SET ${set}`}`,
      );
      // Emptied now: the swap's catch-up applies several batches in one transaction.
      await tx.query(`TRUNCATE ${staging}`);
    },
  };
}
