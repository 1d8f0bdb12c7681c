import type { SqlExecutor } from '@app/database';
import { type EventStoreEngine, type LogReader, type LogSource, SqlLogReader, type StreamOwnership } from '@app/event-store';

/** The projector's copy of the log (event-log.projection.ts), already in log order when written. */
const COPIED_LOG: LogSource = {
  table: 'event_log',
  commit: 'commit_position',
  prepare: 'prepare_position',
  after: '(commit_position, prepare_position) > ($1::numeric, $2::numeric)',
  visible: 'true',
  heads: false,
};

/** The audit log's merchant filter reads stream_owners (stream-owners.projection.ts) beside the log. */
const STREAM_OWNERS: StreamOwnership = {
  ownedBy: (param) => `stream_id IN (SELECT stream_id FROM stream_owners WHERE merchant_id = ${param})`,
};

/** The log as auditors read it in SQL: the engine's own table where it keeps one in PostgreSQL, else the projector's copy. */
export function auditLogReader(db: SqlExecutor, engine: EventStoreEngine): LogReader {
  return new SqlLogReader(db, engine.sqlLog ?? COPIED_LOG, STREAM_OWNERS);
}
