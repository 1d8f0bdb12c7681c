import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import type { Projection } from '../projector/projection';

/**
 * A copy of the log in PostgreSQL, for the audit API when the events live in KurrentDB: finance
 * queries (filters, time ranges, CSV, the hash-chain check) run in SQL beside the ledger. On the
 * PostgreSQL event store the audit API reads the events table itself, and this projection is off.
 */
export const eventLogProjection: Projection = {
  name: 'event_log',
  version: 1,
  tables: ['event_log'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]) {
    for (const e of events) {
      await tx.query(
        `INSERT INTO event_log (commit_position, prepare_position, event_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10) ON CONFLICT DO NOTHING`,
        [
          e.position.commit.toString(),
          e.position.prepare.toString(),
          e.id,
          e.streamId,
          e.revision.toString(),
          e.type,
          JSON.stringify(e.data),
          JSON.stringify(e.metadata),
          e.recordedAt,
          e.hash ?? null,
        ],
      );
    }
  },
};
