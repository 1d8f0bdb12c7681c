import type { Migration } from '@app/database';

export const EVENT_STORE_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-events',
    sql: `
      CREATE TABLE IF NOT EXISTS streams (
        stream_id text PRIMARY KEY,
        revision bigint NOT NULL
      );
      CREATE TABLE IF NOT EXISTS events (
        global_position bigserial PRIMARY KEY,
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        stream_id text NOT NULL,
        stream_revision bigint NOT NULL,
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (stream_id, stream_revision)
      );
      CREATE UNIQUE INDEX IF NOT EXISTS events_event_id ON events (event_id);
      CREATE INDEX IF NOT EXISTS events_log_order ON events (transaction_id, global_position);
    `,
  },
  {
    id: '002-hash-chain',
    sql: `ALTER TABLE events ADD COLUMN IF NOT EXISTS hash text;`,
  },
  {
    // Streams listed by a prefix of their ids (EventStore.streamIdsStartingWith) in the index, under any collation.
    id: '003-streams-by-prefix',
    sql: `CREATE INDEX IF NOT EXISTS streams_by_prefix ON streams (stream_id text_pattern_ops);`,
  },
];
