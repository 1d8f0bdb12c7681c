import { partyReachingPlatform, type CallbackMessage, batchCallbackMessages, endpointOwners, merchantEventIdFor } from '@app/callbacks';
import type { SqlExecutor } from '@app/database';
import { accountDecider, plansCallbacks, streams } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { writeLast } from '../projector/batch-writes';
import type { BatchContext, BulkWriter, Projection, TableRow } from '../projector/projection';
import type { BatchHistories } from '../projector/stream-histories';

const COLUMNS = ['owner_id', 'event_id', 'type', 'created_at', 'commit_position', 'prepare_position', 'payload'];

/**
 * Who finds an event in their events API, and as what: each one it tells (callbackMessages), with the
 * payload they are sent. The merchant whose order, escrow, payout, transfer or account it is; each of
 * its seller accounts with a share of an escrow, which sees its own share alone; a transfer's other party;
 * and whoever else's webhook endpoints the message goes to (endpointOwners): a seller account's
 * platform, which hears of the account's payouts at its endpoints and so lists them, with the account's payload.
 */
export function eventOwners(messages: readonly CallbackMessage[], platformOf: (accountId: string) => string | undefined): { ownerId: string; message: CallbackMessage }[] {
  const owners = new Map<string, CallbackMessage>();
  for (const message of messages) {
    for (const ownerId of endpointOwners(message, platformOf(message.merchantId))) if (!owners.has(ownerId)) owners.set(ownerId, message);
  }
  return [...owners].map(([ownerId, message]) => ({ ownerId, message }));
}

/** The platform of a seller account whose stream the batch consulted (its payout's outcome); undefined for any other merchant. */
const platformIn = (histories: BatchHistories) => (accountId: string) => histories.stateOf(streams.account(accountId), accountDecider).account?.merchantId;

/**
 * The rows a batch adds: one per owner of each callback-worthy event, its payload the callback's built
 * with an empty base URL (withPublicBaseUrl makes its receipt link absolute when it is served).
 */
function rowsOf(events: readonly RecordedEvent[], { histories }: BatchContext): TableRow[] {
  const rows: TableRow[] = [];
  const planned = events.filter((event) => plansCallbacks(event.streamId));
  const platformOf = platformIn(histories);
  for (const [event, messages] of batchCallbackMessages(planned, (streamId) => histories.of(streamId), '', (streamId, decider) => histories.statesAlong(streamId, decider))) {
    // A webhook endpoint's test event is addressed to that endpoint alone: not something that happened to the merchant's money.
    if (messages.some((message) => message.endpointId !== undefined)) continue;
    // What every owner's row of the event shares: one id for every owner, the eventId its webhook endpoints' callbacks carry (endpointCallback).
    const eventId = merchantEventIdFor(event.id);
    const createdAt = event.recordedAt.toISOString();
    const commit = event.position.commit.toString();
    const prepare = event.position.prepare.toString();
    for (const { ownerId, message: notice } of eventOwners(messages, platformOf)) {
      rows.push({
        owner_id: ownerId,
        event_id: eventId,
        type: notice.payload.status,
        created_at: createdAt,
        commit_position: commit,
        prepare_position: prepare,
        // Kept as text: a jsonb column would reorder the keys the callback sends in the spec's order.
        payload: JSON.stringify(notice.payload),
      });
    }
  }
  return rows;
}

/**
 * Each merchant's events, as the callbacks tell them whether or not a callbackURL was given: what the
 * events API lists (docs/guides/events-api.md), in log order. Rows are only ever added, and kept.
 */
export const merchantEventsView: Projection = {
  name: 'merchant_events',
  // 2: a platform's seller accounts have rows of their own (their share of its escrows), and ACCOUNT_UPDATED.
  // 3: a platform has its accounts' PAYOUT_PAID / PAYOUT_FAILED too, as its webhook endpoints do.
  // 4: PAYOUT_SETTINGS_UPDATED (a merchant's, and its accounts' for a platform).
  version: 4,
  tables: ['merchant_events'],
  folds: plansCallbacks,
  // A payout's events name its party, not a platform: the party's account stream says whether it has one.
  consults: (event) => {
    const party = partyReachingPlatform(event);
    return party === undefined ? [] : [streams.account(party)];
  },
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
    const rows = rowsOf(events, context);
    if (rows.length === 0) return;
    await writeLast(tx, context, 
      `INSERT INTO merchant_events (${COLUMNS.join(', ')}) SELECT ${COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::merchant_events, $1::jsonb)
       ON CONFLICT (owner_id, event_id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  },
  // Each event reaches a rebuild once, and its rows are new: random keys (an owner's event ids), whose index a rebuild builds at its end.
  rebuildAppends: ['merchant_events'],
  async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[], context: BatchContext) {
    await writer.append('merchant_events', COLUMNS, rowsOf(events, context));
  },
};
