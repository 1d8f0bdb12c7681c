import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import { writeLast } from '../projector/batch-writes';
import type { BulkWriter, Projection, TableRow, BatchContext } from '../projector/projection';

/** The events that may open a stream a merchant owns (a payout account opens with any of three; a payout's books and destination with theirs, or with the carry-over of its payout account), each naming the merchant (an account's or a transfer's: its platform). */
const OWNED_FROM: ReadonlySet<string> = new Set([
  'MerchantRegistered',
  'AccountCreated',
  'OrderCreated',
  'EscrowCreated',
  'CallbackScheduled',
  'PayoutDestinationSet',
  'PayoutSettingsChanged',
  'PayoutsPaused',
  'PayoutRequested',
  'WebhookEndpointCreated',
  'PayoutBooked',
  'TransferBooked',
  'AccountClosureBooked',
  'AllocationReversalBooked',
  'PayoutDestinationFailed',
  'TransferCreated',
  'TestClockCreated',
  'PayoutCarriedOver',
  'PayoutDestinationCarriedOver',
  'PayoutSettingsCarriedOver',
]);

const COLUMNS = ['stream_id', 'merchant_id'];

/** A transfer belongs to the platform that made it; the other streams name their merchant. */
const ownerNamedBy = (data: { merchantId?: string; platformId?: string }) => data.merchantId ?? data.platformId;

const ownersNamedBy = (events: readonly RecordedEvent[]) =>
  events.filter((e) => OWNED_FROM.has(e.type)).map((e) => ({ event: e, row: { stream_id: e.streamId, merchant_id: ownerNamedBy(e.data as { merchantId?: string; platformId?: string }) } }));

/**
 * Which merchant each stream belongs to (its own, its orders', escrows', callback deliveries', payout
 * account's, webhook endpoints' and, for a platform, its accounts'): what the audit log's merchant filter reads, beside the log itself.
 */
export const streamOwnersView: Projection = {
  name: 'stream_owners',
  // 2: payout accounts have an owner too.
  // 3: a platform's accounts (sellers) belong to the platform.
  version: 3,
  tables: ['stream_owners'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
    const rows = ownersNamedBy(events).map(({ row }) => row);
    if (rows.length === 0) return;
    await writeLast(tx, context, 
      `INSERT INTO stream_owners (stream_id, merchant_id) SELECT stream_id, merchant_id FROM jsonb_populate_recordset(NULL::stream_owners, $1::jsonb)
       ON CONFLICT (stream_id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  },
  // A stream's first event names its owner before anything else can. The first owner named keeps
  // the stream, as above: later ones in the batch are dropped here, the copies' rows kept there.
  async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[]) {
    const first = new Map<string, { event: RecordedEvent; row: TableRow }>();
    for (const owner of ownersNamedBy(events)) if (!first.has(owner.event.streamId)) first.set(owner.event.streamId, owner);
    const owners = [...first.values()];
    await writer.append('stream_owners', COLUMNS, owners.filter(({ event }) => event.revision === 0n).map(({ row }) => row));
    await writer.merge('stream_owners', COLUMNS, owners.filter(({ event }) => event.revision > 0n).map(({ row }) => row), { key: ['stream_id'] });
  },
};
