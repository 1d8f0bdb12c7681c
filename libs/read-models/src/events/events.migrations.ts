import type { Migration } from '@app/database';

/**
 * The projector's copy of the log (event_log, event-log.projection.ts) and each merchant's events
 * (merchant_events, merchant-events.projection.ts). They run among the other features' in id order
 * (read-model.migrations.ts); a released one never changes (read-model.migrations.spec.ts).
 */
export const EVENTS_MIGRATIONS: readonly Migration[] = [
  {
    id: '004-event-log',
    sql: `
      CREATE TABLE IF NOT EXISTS event_log (
        commit_position numeric(20) NOT NULL,
        prepare_position numeric(20) NOT NULL,
        event_id text NOT NULL,
        stream_id text NOT NULL,
        stream_revision bigint NOT NULL,
        event_type text NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        recorded_at timestamptz NOT NULL,
        hash text,
        PRIMARY KEY (commit_position, prepare_position)
      );
      CREATE UNIQUE INDEX IF NOT EXISTS event_log_stream ON event_log (stream_id, stream_revision);
    `,
  },
  {
    // Each merchant's events as the events API lists them (merchant-events.projection.ts): by owner in
    // log order, all types or one; the payload as text, in the order its callback sends it.
    id: '019-merchant-events',
    sql: `
      CREATE TABLE IF NOT EXISTS merchant_events (
        owner_id text NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        created_at timestamptz NOT NULL,
        commit_position numeric(20) NOT NULL,
        prepare_position numeric(20) NOT NULL,
        payload text NOT NULL,
        PRIMARY KEY (owner_id, event_id)
      );
      CREATE INDEX IF NOT EXISTS merchant_events_in_order ON merchant_events (owner_id, commit_position, prepare_position);
      CREATE INDEX IF NOT EXISTS merchant_events_by_type ON merchant_events (owner_id, type, commit_position, prepare_position);
    `,
  },
];
