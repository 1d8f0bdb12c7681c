import type { SqlClient } from './sql-client';

export interface Migration {
  /** Unique within its component; applied in array order. */
  id: string;
  sql: string;
}

/**
 * Applies each component's migrations once, in order. A transaction-level advisory lock keeps two
 * processes starting together from applying the same migration twice.
 */
export async function migrate(db: SqlClient, schema: string, component: string, migrations: readonly Migration[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`migrate:${schema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '""')}"`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         component text NOT NULL, id text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (component, id))`,
    );
    const applied = new Set(
      (await tx.query<{ id: string }>(`SELECT id FROM schema_migrations WHERE component = $1`, [component])).map((r) => r.id),
    );
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query(`INSERT INTO schema_migrations (component, id) VALUES ($1, $2)`, [component, migration.id]);
    }
  });
}

/** Migrations are plain DDL separated by semicolons at line ends (no procedural bodies). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
