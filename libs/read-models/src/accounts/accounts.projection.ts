import type { SqlExecutor } from '@app/database';
import { type Account, type AccountEvent, accountOf, type PayoutEvent, streamKind } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { writeLast } from '../projector/batch-writes';
import { foldedView } from '../projector/folded-view.projection';
import type { BulkWriter, Projection, BatchContext } from '../projector/projection';

/**
 * A platform's accounts, one row each, in the shape their answers and the console's pages read
 * (accounts.reader.ts): the document is the account as published (account.outline.ts), folded from
 * the events' data. Version 2: the document no longer holds the creating request's fingerprint; 3: each
 * of its documents names who uploaded it.
 */
export const accountsView = foldedView<Account | undefined>({
  name: 'accounts_view',
  version: 3,
  table: 'accounts_view',
  key: 'account_id',
  columns: ['account_id', 'merchant_id', 'reference', 'status', 'document', 'created_at', 'updated_at', 'revision'],
  streams: (streamId) => streamKind(streamId) === 'account',
  fold: (_streamId, history) => accountOf(history as unknown as AccountEvent[]),
  row: (_streamId, account) =>
    account && { account_id: account.accountId, merchant_id: account.merchantId, reference: account.reference ?? null, status: account.status, document: account },
});

type DestinationSet = Extract<PayoutEvent, { type: 'PayoutDestinationSet' }>;

const COLUMNS = ['merchant_id', 'holder_name', 'version', 'set_at', 'holds'];

/** Each merchant's latest destination in a batch, as far as an account's requirements and payout hold look at it: whose it is, and when it changed. */
function latestDestinations(events: readonly RecordedEvent[]) {
  const latest = new Map<string, { merchant_id: string; holder_name: string; version: number; set_at: string; holds: boolean | null }>();
  for (const event of events) {
    if (event.type !== 'PayoutDestinationSet') continue;
    const { merchantId, version, destination, setAt, holds } = (event as unknown as DestinationSet).data;
    latest.set(merchantId, { merchant_id: merchantId, holder_name: destination.holderName, version, set_at: setAt, holds: holds ?? null });
  }
  return [...latest.values()];
}

/**
 * The holder and time of every merchant's payout destination (never its number), and whether setting
 * it held payouts (null: set before that was recorded), read beside an account's row: the destination
 * lives with the payouts, the account names what it lacks.
 */
export const payoutDestinationHoldersView: Projection = {
  name: 'payout_destination_holders',
  version: 1,
  tables: ['payout_destination_holders'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
    const rows = latestDestinations(events);
    if (rows.length === 0) return;
    await writeLast(tx, context, 
      `INSERT INTO payout_destination_holders (merchant_id, holder_name, version, set_at, holds)
       SELECT merchant_id, holder_name, version, set_at, holds FROM jsonb_populate_recordset(NULL::payout_destination_holders, $1::jsonb)
       ON CONFLICT (merchant_id) DO UPDATE SET holder_name = EXCLUDED.holder_name, version = EXCLUDED.version, set_at = EXCLUDED.set_at, holds = EXCLUDED.holds
       WHERE payout_destination_holders.version < EXCLUDED.version`,
      [JSON.stringify(rows)],
    );
  },
  async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[]) {
    await writer.merge('payout_destination_holders', COLUMNS, latestDestinations(events), {
      key: ['merchant_id'],
      set: 'holder_name = EXCLUDED.holder_name, version = EXCLUDED.version, set_at = EXCLUDED.set_at, holds = EXCLUDED.holds',
    });
  },
};
