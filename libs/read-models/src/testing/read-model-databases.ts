import { createPgliteClient, migrate, type SqlClient } from '@app/database';
import { comparePositions, EVENT_STORE_MIGRATIONS, type EventStore, type LogPosition, PostgresEventStore } from '@app/event-store';
import { createTestSchema } from '../../../../test/support/postgres';
import { waitFor } from '../../../../test/support/wait';
import { ProjectionProgress, readCheckpoint } from '../projector/projection-progress';
import { Projector } from '../projector/projector';
import { CORE_PROJECTIONS } from '../projector/projections';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';

export interface ReadModelDatabase {
  client: SqlClient;
  schema: string;
  drop(): Promise<void>;
}

/** The two engines the read models run on, for `describe.each`: a fresh schema of the shared PostgreSQL, and PGlite in memory. */
export const READ_MODEL_DATABASES: [string, (prefix: string) => Promise<ReadModelDatabase>][] = [
  ['PostgreSQL', (prefix) => createTestSchema(prefix)],
  [
    'PGlite',
    async () => {
      const client = await createPgliteClient(undefined);
      return { client, schema: 'public', drop: () => client.close() };
    },
  ],
];

/** The log and the read models migrated in the database, and its event store (polling often, for a projector under test). */
export async function logAndViews(db: ReadModelDatabase): Promise<PostgresEventStore> {
  await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
  await migrate(db.client, db.schema, 'read-models', READ_MODEL_MIGRATIONS);
  return new PostgresEventStore(db.client, { pollIntervalMs: 10 });
}

/** Runs the live projector (in batches of `batchSize`, so a stream spans several) until it has applied the log up to `head`. */
export async function projectUpTo(db: ReadModelDatabase, store: EventStore, head: LogPosition, batchSize: number): Promise<void> {
  const projector = new Projector(db.client, store, CORE_PROJECTIONS, new ProjectionProgress(db.client), { lockName: `projector:${db.schema}`, schema: db.schema, batchSize });
  projector.start();
  try {
    await waitFor(async () => comparePositions(await readCheckpoint(db.client), head) >= 0, 'the projector to reach the head of the log');
  } finally {
    await projector.stop();
  }
}

/** The tables' indexes and key constraints, names included: a rebuild must leave them as their migrations made them. */
export async function tableDefinitions(db: SqlClient, schema: string, tables: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ def: string }>(
    `SELECT indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND tablename = ANY($2::text[])
     UNION ALL
     SELECT c.conname || ': ' || pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = $1 AND t.relname = ANY($2::text[])
     ORDER BY 1`,
    [schema, tables],
  );
  return rows.map((r) => r.def);
}
