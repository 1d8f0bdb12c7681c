import type { CopyValue } from './copy-text';

/** What the event store and the read models need from a PostgreSQL connection, on `pg` and on PGlite alike. */
export interface SqlExecutor {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * Appends rows to `table` (resolved on the search path) with COPY: one statement, no per-row
   * parsing of a JSON or a parameter list, no conflict checks. A row that breaks a constraint fails
   * the whole copy.
   */
  copyRows(table: string, columns: readonly string[], rows: readonly (readonly CopyValue[])[]): Promise<void>;
}

export interface SqlClient extends SqlExecutor {
  /** Runs `work` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Runs `work` on one connection held for its whole duration (session-level advisory locks live
   * there). `lost` aborts if that connection ends meanwhile: whatever the session held is gone.
   */
  withSession<T>(work: (session: SqlExecutor, lost: AbortSignal) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` with each NOTIFY payload on `channel` (a name from notificationChannel) until
   * the returned function is called. Delivery is a wake-up, not a guarantee: a lost connection
   * misses notifications until it is back, so every listener also polls.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /**
   * One connection for the whole process (PGlite): work outside a transaction waits until it ends,
   * so nothing may read the log from outside a transaction it is waiting in.
   */
  readonly singleConnection: boolean;
}

export const SQL_CLIENT = Symbol('SQL_CLIENT');
