import { type JournalEntry, journalFor, refundCompletionEntry } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import {
  type EscrowEvent,
  escrowDecider,
  escrowOutline,
  ESCROW_PAYMENT_EVENTS,
  fold,
  holdsMoney,
  isPayableStream,
  ORDER_PAYMENT_EVENTS,
  type RefundRequest,
  type Santim,
  streamKey,
  streamKind,
} from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { settleRunningBalances } from './ledger-running-balances';
import type { BatchContext, BulkWriter, Projection, TableRow } from './projection';
import type { BatchHistories } from './stream-histories';

export class LedgerInvariantViolation extends Error {
  constructor(message: string) {
    super(`ledger invariant violated: ${message}`);
    this.name = 'LedgerInvariantViolation';
  }
}

interface Posted {
  event: RecordedEvent;
  entry: JournalEntry;
}

/**
 * The ledger of docs/concepts/ledger.md as a projection: one balanced journal entry per money event, postings in integer santim,
 * and each posting's running balance (ledger-running-balances.ts). What an entry needs beyond its event (the order's merchant, a refund's
 * amount) comes from the payable's own history (its creation, the refund's request), so the ledger reads
 * no other view. Its invariants are checked once the whole batch is applied; a violation rolls the batch back
 * and stops the projector rather than let a wrong balance be written. A batch's entries, postings and
 * balance changes are written one statement each, so a batch costs the same few round trips however
 * many money events it holds.
 */
export const ledgerProjection: Projection = {
  name: 'ledger',
  version: 1,
  tables: ['ledger_entries', 'ledger_postings', 'ledger_balances'],
  // Each batch settles its running balances on top of the earlier batches' postings.
  rebuildReads: ['ledger_postings_account_time'],
  folds: isPayableStream,
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], { histories }: BatchContext) {
    const entries = postedBy(events, histories);
    if (entries.length > 0) await post(tx, entries);
  },
  // Every entry is new to a rebuild's copies (one per event, each event applied once): entries and
  // postings are appended, and their running balances settled on top of earlier batches'; balances,
  // summed over the batch, are added to what earlier batches left.
  async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[], { histories }: BatchContext) {
    const entries = postedBy(events, histories);
    const postings = postingRows(entries);
    await writer.append('ledger_entries', ENTRY_COLUMNS, entryRows(entries));
    await writer.append('ledger_postings', POSTING_COLUMNS, postings);
    await settleRunningBalances(writer, postings);
    await writer.merge('ledger_balances', BALANCE_COLUMNS, balanceRows(postings), { key: ['account'], set: ADD_TO_BALANCE });
  },
  async check(tx: SqlExecutor, _events: readonly RecordedEvent[], { histories }: BatchContext) {
    const escrows = [...histories.streams()].filter((streamId) => streamKind(streamId) === 'escrow');
    await assertEscrowBalances(tx, escrows, histories);
  },
};

/** The batch's money events with their journal entries, each checked to balance, in log order. */
function postedBy(events: readonly RecordedEvent[], histories: BatchHistories): Posted[] {
  const entries: Posted[] = [];
  for (const event of events) {
    if (!holdsMoney(event.streamId)) continue;
    // A payout's or a transfer's events carry their merchants and amount; an order's or an escrow's need their stream's history.
    const entry = isPayableStream(event.streamId) ? entryFor(event, histories) : journalFor(event.type, event.data as Record<string, unknown>, { id: event.streamId });
    if (entry) entries.push({ event, entry: balanced(event, entry) });
  }
  return entries;
}

/** The refund `completion` completes, as its request (an event earlier in the payable's stream) recorded it. */
function refundRequested(completion: RecordedEvent, refundId: unknown, histories: BatchHistories): RefundRequest | undefined {
  const before = histories.of(completion.streamId, completion.revision - 1n);
  return before.find((e) => REFUND_REQUESTED.has(e.type) && (e.data as RefundRequest).refundId === refundId)?.data as RefundRequest | undefined;
}

const REFUND_REQUESTED: ReadonlySet<string> = new Set([ORDER_PAYMENT_EVENTS.refundRequested, ESCROW_PAYMENT_EVENTS.refundRequested]);

/** Who created the order or escrow, and a plain order's fee: its first event says, no fold needed. */
function creationOf(event: RecordedEvent, histories: BatchHistories): { merchantId?: string; fee?: Santim } {
  return (histories.of(event.streamId)[0]?.data as { merchantId?: string; fee?: Santim } | undefined) ?? {};
}

function entryFor(event: RecordedEvent, histories: BatchHistories): JournalEntry | undefined {
  const data = event.data as Record<string, unknown>;
  const id = streamKey(event.streamId);
  // The creator's fees account takes part in these: its id is in the stream's first event.
  const feesMove = (event.type === 'AllocationReleased' && data.fee) || (event.type === 'EscrowRefundRequested' && data.feeReturned);
  if (event.type === 'OrderPaid' || event.type === 'OrderRefundRequested' || feesMove) {
    const creation = creationOf(event, histories);
    return journalFor(event.type, data, { id, creatorMerchantId: creation.merchantId, orderFee: event.type === 'OrderPaid' ? creation.fee : undefined });
  }
  if (event.type === 'EscrowRefundCompleted' || event.type === 'OrderRefundCompleted') {
    const refund = refundRequested(event, data.refundId, histories);
    if (!refund) throw new LedgerInvariantViolation(`refund ${String(data.refundId)} completed but never requested`);
    return refundCompletionEntry(refund.amount);
  }
  return journalFor(event.type, data, { id });
}

function balanced(event: RecordedEvent, entry: JournalEntry): JournalEntry {
  const debits = entry.lines.reduce((sum, line) => sum + line.debit, 0);
  const credits = entry.lines.reduce((sum, line) => sum + line.credit, 0);
  if (debits !== credits || debits <= 0 || !Number.isSafeInteger(debits)) {
    throw new LedgerInvariantViolation(`entry for event ${event.id} debits ${debits} and credits ${credits}`);
  }
  return entry;
}

/** Rows as JSON, read by the table's own row type: one statement per table for the whole batch. */
function fromJson(table: string, columns: readonly string[]): string {
  return `SELECT ${columns.join(', ')} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)`;
}

const ENTRY_COLUMNS = ['entry_id', 'event_id', 'stream_id', 'event_type', 'commit_position', 'prepare_position', 'recorded_at', 'description'];
const POSTING_COLUMNS = ['entry_id', 'line', 'account', 'debit', 'credit', 'memo', 'commit_position', 'prepare_position', 'recorded_at'];
const BALANCE_COLUMNS = ['account', 'debit', 'credit'];
const ADD_TO_BALANCE = 'debit = ledger_balances.debit + EXCLUDED.debit, credit = ledger_balances.credit + EXCLUDED.credit';

/**
 * An entry is dated by its business time: the append time, or for an event decided on a test clock the
 * clock's time (its metadata's businessAt, docs/concepts/time.md), so that a test object's holding
 * period, availability and statement lines run on its clock. The log's recordedAt stays the real time.
 */
const position = (event: RecordedEvent) => ({
  commit_position: event.position.commit.toString(),
  prepare_position: event.position.prepare.toString(),
  recorded_at: event.metadata.businessAt ? new Date(event.metadata.businessAt) : event.recordedAt,
});

function entryRows(entries: readonly Posted[]): TableRow[] {
  return entries.map(({ event, entry }) => ({
    entry_id: event.id,
    event_id: event.id,
    stream_id: event.streamId,
    event_type: event.type,
    description: entry.description,
    ...position(event),
  }));
}

type PostingRow = TableRow & { account: string; debit: number; credit: number; recorded_at: Date };

function postingRows(entries: readonly Posted[]): PostingRow[] {
  return entries.flatMap(({ event, entry }) =>
    entry.lines.map((line, index) => ({ entry_id: event.id, line: index + 1, account: line.account, debit: line.debit, credit: line.credit, memo: line.memo ?? null, ...position(event) })),
  );
}

/** One row per account: an upsert may not touch the same row twice in one statement. */
function balanceRows(postings: readonly PostingRow[]): TableRow[] {
  const balances = new Map<string, { debit: bigint; credit: bigint }>();
  for (const posting of postings) {
    const balance = balances.get(posting.account) ?? { debit: 0n, credit: 0n };
    balances.set(posting.account, { debit: balance.debit + BigInt(posting.debit), credit: balance.credit + BigInt(posting.credit) });
  }
  return [...balances].map(([account, b]) => ({ account, debit: b.debit.toString(), credit: b.credit.toString() }));
}

async function post(tx: SqlExecutor, entries: readonly Posted[]): Promise<void> {
  // An entry already posted (the batch is applied again) posts nothing twice.
  const inserted = await tx.query<{ entry_id: string }>(
    `INSERT INTO ledger_entries (${ENTRY_COLUMNS.join(', ')}) ${fromJson('ledger_entries', ENTRY_COLUMNS)}
     ON CONFLICT (entry_id) DO NOTHING RETURNING entry_id`,
    [JSON.stringify(entryRows(entries))],
  );
  const fresh = new Set(inserted.map((row) => row.entry_id));
  const postings = postingRows(entries.filter(({ event }) => fresh.has(event.id)));
  if (postings.length === 0) return;
  await tx.query(`INSERT INTO ledger_postings (${POSTING_COLUMNS.join(', ')}) ${fromJson('ledger_postings', POSTING_COLUMNS)}`, [JSON.stringify(postings)]);
  await settleRunningBalances(tx, postings);
  await tx.query(
    `INSERT INTO ledger_balances (${BALANCE_COLUMNS.join(', ')}) ${fromJson('ledger_balances', BALANCE_COLUMNS)}
     ON CONFLICT (account) DO UPDATE SET ${ADD_TO_BALANCE}`,
    [JSON.stringify(balanceRows(postings))],
  );
}

/** An escrow's account holds exactly what its allocations hold and disputes freeze, as its own history says. */
async function assertEscrowBalances(tx: SqlExecutor, streamIds: readonly string[], histories: BatchHistories): Promise<void> {
  if (streamIds.length === 0) return;
  const accounts = streamIds.map((streamId) => `escrow:${streamKey(streamId)}`);
  const rows = await tx.query<{ account: string; balance: string }>(
    `SELECT account, (credit - debit)::text AS balance FROM ledger_balances WHERE account = ANY($1::text[])`,
    [accounts],
  );
  const balances = new Map(rows.map((row) => [row.account, BigInt(row.balance)]));
  for (const streamId of streamIds) {
    const escrow = escrowOutline(fold(escrowDecider, histories.of(streamId) as unknown as EscrowEvent[]));
    const held = escrow ? escrow.held + escrow.frozen : 0;
    const account = `escrow:${streamKey(streamId)}`;
    const balance = balances.get(account) ?? 0n;
    if (balance !== BigInt(held)) throw new LedgerInvariantViolation(`${account} has a balance of ${balance} santim but holds ${held}`);
  }
}
