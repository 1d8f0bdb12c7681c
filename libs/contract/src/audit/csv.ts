import { parsePosition } from '@app/event-store';
import { type AuditLogReader, csvRow, type EventFilter } from '@app/audit';

const EVENT_COLUMNS = ['position', 'event_id', 'stream_id', 'revision', 'type', 'recorded_at', 'data', 'metadata', 'hash'];

/** The filtered event log as CSV lines, read page by page so memory stays constant however long the log. */
export async function* eventCsvRows(log: AuditLogReader, filter: EventFilter): AsyncGenerator<string> {
  yield csvRow(EVENT_COLUMNS);
  let after = filter.after;
  for (;;) {
    const page = await log.page({ ...filter, after });
    for (const e of page.events) yield csvRow([e.position, e.id, e.streamId, e.revision, e.type, e.recordedAt, e.data, e.metadata, e.hash]);
    if (!page.next) return;
    after = parsePosition(page.next);
  }
}
