import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import type { Projection } from './projection';

/** The first event of each stream a merchant owns, and where it names the merchant. */
const OWNED_FROM: ReadonlySet<string> = new Set(['MerchantRegistered', 'OrderCreated', 'EscrowCreated', 'CallbackScheduled']);

/**
 * Which merchant each stream belongs to (its own, its orders', escrows' and callback deliveries'):
 * what the audit log's merchant filter reads, beside the log itself.
 */
export const streamOwnersView: Projection = {
  name: 'stream_owners',
  version: 1,
  tables: ['stream_owners'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]) {
    const rows = events
      .filter((e) => OWNED_FROM.has(e.type))
      .map((e) => ({ stream_id: e.streamId, merchant_id: (e.data as { merchantId: string }).merchantId }));
    if (rows.length === 0) return;
    await tx.query(
      `INSERT INTO stream_owners (stream_id, merchant_id) SELECT stream_id, merchant_id FROM jsonb_populate_recordset(NULL::stream_owners, $1::jsonb)
       ON CONFLICT (stream_id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  },
};
