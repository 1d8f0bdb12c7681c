import type { SqlExecutor } from '@app/database';
import { streamKey } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { writeLast } from '../projector/batch-writes';
import type { BulkWriter, Projection, BatchContext } from '../projector/projection';

/** The creation events that may attach an object to a test clock (docs/concepts/time.md): an object keeps the clock its creation names. */
const ATTACHED_BY: ReadonlySet<string> = new Set(['OrderCreated', 'EscrowCreated', 'AccountCreated']);

const COLUMNS = ['object_id', 'test_clock_id', 'event_type'];

const attachments = (events: readonly RecordedEvent[]) =>
  events
    .filter((e) => e.revision === 0n && ATTACHED_BY.has(e.type) && (e.data as { testClockId?: string }).testClockId)
    .map((e) => ({ object_id: streamKey(e.streamId), test_clock_id: (e.data as { testClockId: string }).testClockId, event_type: e.type }));

/**
 * Which orders, escrows and accounts each test clock carries: what an advance reads to find its objects'
 * due work, and what the real-time scheduler's passes leave out (the clock, not the real time, moves them).
 */
export const testClockObjectsView: Projection = {
  name: 'test_clock_objects',
  version: 1,
  tables: ['test_clock_objects'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
    const rows = attachments(events);
    if (rows.length === 0) return;
    await writeLast(tx, context, 
      `INSERT INTO test_clock_objects (${COLUMNS.join(', ')}) SELECT ${COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::test_clock_objects, $1::jsonb)
       ON CONFLICT (object_id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  },
  async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[]) {
    await writer.append('test_clock_objects', COLUMNS, attachments(events));
  },
};
