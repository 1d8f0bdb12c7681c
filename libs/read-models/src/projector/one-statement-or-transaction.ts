import type { SqlExecutor } from '@app/database';

/**
 * Runs `work` on `session` as one transaction, begun only once it sends a statement before its last:
 * `work` sends its last statement through the executor `last(followed)` answers, saying whether anything
 * may still throw after it (and so must roll it back). A batch whose writes all ride in one statement with
 * nothing after it is that statement alone, atomic by itself: no BEGIN and COMMIT round trips. Nothing may
 * be sent after a last statement sent alone. `session` must be a connection of its own (SqlClient.withSession
 * on `pg`): statements outside a transaction on a shared connection (PGlite) would land inside this one.
 */
export async function oneStatementOrTransaction<T>(
  session: SqlExecutor,
  work: (tx: SqlExecutor, last: (followed: boolean) => SqlExecutor) => Promise<T>,
): Promise<T> {
  const batch: { state: 'idle' | 'begun' | 'sent alone' } = { state: 'idle' };
  const begin = async () => {
    if (batch.state === 'sent alone') throw new Error('A statement followed the one the batch was sent as');
    if (batch.state === 'idle') {
      await session.query('BEGIN');
      batch.state = 'begun';
    }
  };
  const tx: SqlExecutor = {
    async query<Row>(sql: string, params?: readonly unknown[]) {
      await begin();
      return session.query<Row>(sql, params);
    },
    async copyRows(table, columns, rows) {
      await begin();
      await session.copyRows(table, columns, rows);
    },
  };
  const alone: SqlExecutor = {
    async query<Row>(sql: string, params?: readonly unknown[]) {
      if (batch.state !== 'idle') return tx.query<Row>(sql, params);
      batch.state = 'sent alone';
      return session.query<Row>(sql, params);
    },
    copyRows: (table, columns, rows) => tx.copyRows(table, columns, rows),
  };
  try {
    const result = await work(tx, (followed) => (followed ? tx : alone));
    if (batch.state === 'begun') await session.query('COMMIT');
    return result;
  } catch (error) {
    if (batch.state === 'begun') await session.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
