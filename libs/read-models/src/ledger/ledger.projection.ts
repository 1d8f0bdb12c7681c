import { ACCOUNTS, booksAccountMode, type JournalEntry, journalFor, refundCompletionEntry } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import {
  escrowDecider,
  escrowOutline,
  ESCROW_PAYMENT_EVENTS,
  holdsMoney,
  isPayableStream,
  type Mode,
  ORDER_PAYMENT_EVENTS,
  type RefundRequest,
  type Santim,
  streamKey,
  streamKind,
} from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { type CopiedPosting, settleBeforeCopy, settleRunningBalances, settleRunningBalancesLast } from './ledger-running-balances';
import { decideLegacyEntries, keptModes, LedgerTenantModes, platformsNamed } from './ledger-tenant-modes';
import { keyedLookup, readFor } from '../projector/batch-reads';
import type { BatchContext, BatchRead, BulkWriter, Projection, TableRow } from '../projector/projection';
import type { BatchHistories } from '../projector/stream-histories';

export class LedgerInvariantViolation extends Error {
  constructor(message: string) {
    super(`ledger invariant violated: ${message}`);
    this.name = 'LedgerInvariantViolation';
  }
}

interface Posted {
  event: RecordedEvent;
  entry: JournalEntry;
  /** Its tenant's mode; null while that is a tenant from before modes whose mode the log has not decided yet. */
  mode: Mode | null;
}

/** A batch's entries, and the tenants' modes it made known. */
interface Batch {
  entries: Posted[];
  modes: LedgerTenantModes;
}

/**
 * The ledger of docs/concepts/ledger.md as a projection: one balanced journal entry per money event, postings in integer santim,
 * and each posting's running balance (ledger-running-balances.ts). What an entry needs beyond its event (the order's merchant, a refund's
 * amount) comes from the payable's own history (its creation, the refund's request), so the ledger reads
 * no other view. Its invariants are checked once the whole batch is applied; a violation rolls the batch back
 * and stops the projector rather than let a wrong balance be written. A batch's entries, postings and
 * balance changes are written in one statement (post), so a batch costs the same few round trips however
 * many money events it holds. Each tenant's entries post to the books' accounts of its mode
 * (ledger-tenant-modes.ts), and each entry and account records its mode, so each mode's books are read apart.
 */
export const ledgerProjection: Projection = {
  name: 'ledger',
  // 2: the books' accounts per mode (docs/concepts/modes.md), entries and accounts with their mode.
  version: 2,
  tables: ['ledger_entries', 'ledger_postings', 'ledger_balances', 'ledger_tenant_modes'],
  // Each batch settles its running balances on top of the earlier batches' postings.
  rebuildReads: ['ledger_postings_account_time'],
  // Keyed by event id, in random order; the postings keep their key, by which settling updates them.
  rebuildAppends: ['ledger_entries'],
  folds: isPayableStream,
  readBefore: (events, context) => LedgerTenantModes.ask(events, tenantsNamed(events, context.histories), keptModes(context)),
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
    const { entries, modes } = await postedBy(tx, events, context);
    const tenants = modes.rows();
    // Entries moved to a tenant's books once its mode is decided settle their accounts' running balances
    // then and there, on top of the batch's own settled first.
    if (entries.length > 0 || tenants.length > 0) await post(tx, entries, tenants, modes.decidedInBatch ? undefined : context);
    if (modes.decidedInBatch) await decideLegacyEntries(tx, modes.decidedInBatch);
    modes.keep();
  },
  // Every entry is new to a rebuild's copies (one per event, each event applied once): entries and
  // postings are appended with their running balances, settled in memory on top of earlier batches'; balances,
  // summed over the batch, are added to what earlier batches left.
  async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[], context: BatchContext) {
    const { entries, modes } = await postedBy(writer, events, context);
    const postings = postingRows(entries);
    const unsettled = await settleBeforeCopy(writer, postings);
    await writer.append('ledger_entries', ENTRY_COLUMNS, entryRows(entries));
    await writer.append('ledger_postings', [...POSTING_COLUMNS, 'running_balance'], postings);
    await settleRunningBalances(writer, unsettled);
    const balances = balanceRows(entries);
    const tenants = modes.rows();
    if (balances.length > 0 || tenants.length > 0) await writer.query(MERGE_BALANCES_AND_MODES, [JSON.stringify(balances), JSON.stringify(tenants)]);
    if (modes.decidedInBatch) await decideLegacyEntries(writer, modes.decidedInBatch);
  },
  checkRead: (events, { histories }) => escrowBalances(escrowsToCheck(events, histories)),
  async check(tx: SqlExecutor, events: readonly RecordedEvent[], { histories, checked }: BatchContext) {
    const streamIds = escrowsToCheck(events, histories);
    if (streamIds.length === 0) return;
    assertEscrowBalances((checked ?? (await readFor(tx, { histories }, () => escrowBalances(streamIds)))) as { account: string; balance: string }[], streamIds, histories);
  },
};

/**
 * The batch's money events with their journal entries, each checked to balance, in log order, each
 * posted to the books of its tenant's mode as the log stands at its event.
 */
async function postedBy(db: Pick<SqlExecutor, 'query'>, events: readonly RecordedEvent[], context: BatchContext): Promise<Batch> {
  const { histories } = context;
  const kept = keptModes(context);
  const modes = LedgerTenantModes.from(await readFor(db, context, () => LedgerTenantModes.ask(events, tenantsNamed(events, histories), kept)), kept);
  const entries: Posted[] = [];
  for (const event of events) {
    modes.learn(event);
    if (!holdsMoney(event.streamId)) continue;
    const mode = modes.modeOf(tenantOf(event, histories));
    // Before its mode is known, an entry posts to the books' accounts under their live names, and moves once it is.
    const entry = entryFor(event, histories, mode ?? 'live');
    if (entry) entries.push({ event, entry: balanced(event, entry), mode });
  }
  return { entries, modes };
}

/**
 * The tenants whose modes the batch's entries need: whose money it moves, and the platforms its
 * accounts take their modes from. Whether an event posts does not depend on its tenant's mode (that
 * only names the books' accounts): a batch that posts nothing (a busy hour's creates) reads no modes
 * unless it makes one known.
 */
function tenantsNamed(events: readonly RecordedEvent[], histories: BatchHistories): string[] {
  const money = events.filter((event) => holdsMoney(event.streamId) && entryFor(event, histories, 'live') !== undefined);
  return [...money.map((event) => tenantOf(event, histories)), ...platformsNamed(events)];
}

/**
 * Whose money an event moves: an order's or an escrow's creator, a payout's party, a transfer's source
 * (a transfer's two parties are one platform's, so of one mode).
 */
function tenantOf(event: RecordedEvent, histories: BatchHistories): string {
  if (isPayableStream(event.streamId)) return creationOf(event, histories).merchantId ?? '';
  const data = event.data as { merchantId?: string; source?: string };
  return data.merchantId ?? data.source ?? '';
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

function entryFor(event: RecordedEvent, histories: BatchHistories, mode: Mode): JournalEntry | undefined {
  const data = event.data as Record<string, unknown>;
  // A payout's or a transfer's events carry their merchants and amount; an order's or an escrow's need their stream's history.
  if (!isPayableStream(event.streamId)) return journalFor(event.type, data, { id: event.streamId, mode });
  const id = streamKey(event.streamId);
  // The creator's fees account takes part in these: its id is in the stream's first event.
  const feesMove = (event.type === 'AllocationReleased' && data.fee) || (event.type === 'EscrowRefundRequested' && data.feeReturned);
  if (event.type === 'OrderPaid' || event.type === 'OrderRefundRequested' || feesMove) {
    const creation = creationOf(event, histories);
    return journalFor(event.type, data, { id, creatorMerchantId: creation.merchantId, orderFee: event.type === 'OrderPaid' ? creation.fee : undefined, mode });
  }
  if (event.type === 'EscrowRefundCompleted' || event.type === 'OrderRefundCompleted') {
    const refund = refundRequested(event, data.refundId, histories);
    if (!refund) throw new LedgerInvariantViolation(`refund ${String(data.refundId)} completed but never requested`);
    return refundCompletionEntry(refund.amount, mode);
  }
  return journalFor(event.type, data, { id, mode });
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

const ENTRY_COLUMNS = ['entry_id', 'event_id', 'stream_id', 'event_type', 'commit_position', 'prepare_position', 'recorded_at', 'description', 'mode'];
const POSTING_COLUMNS = ['entry_id', 'line', 'account', 'debit', 'credit', 'memo', 'commit_position', 'prepare_position', 'recorded_at'];
const BALANCE_COLUMNS = ['account', 'debit', 'credit', 'mode'];
const MODE_COLUMNS = ['tenant_id', 'mode'];
const ADD_TO_BALANCE = 'debit = ledger_balances.debit + EXCLUDED.debit, credit = ledger_balances.credit + EXCLUDED.credit, mode = COALESCE(ledger_balances.mode, EXCLUDED.mode)';

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
  return entries.map(({ event, entry, mode }) => ({
    entry_id: event.id,
    mode,
    event_id: event.id,
    stream_id: event.streamId,
    event_type: event.type,
    description: entry.description,
    ...position(event),
  }));
}

type PostingRow = TableRow & CopiedPosting;

/** A posting, and the mode of the entry it is a line of (not a column of its own: its account's row says it). */
type ModedPosting = { row: PostingRow; mode: Mode | null };

function modedPostings(entries: readonly Posted[]): ModedPosting[] {
  return entries.flatMap(({ event, entry, mode }) =>
    entry.lines.map((line, index) => ({
      row: { entry_id: event.id, line: index + 1, account: line.account, debit: line.debit, credit: line.credit, memo: line.memo ?? null, ...position(event) },
      mode,
    })),
  );
}

const postingRows = (entries: readonly Posted[]): PostingRow[] => modedPostings(entries).map((posting) => posting.row);

/**
 * One row per account: an upsert may not touch the same row twice in one statement. An account is of
 * one mode: a books account's name says which, any other is its tenant's, as its entries are.
 */
function balanceRows(entries: readonly Posted[]): TableRow[] {
  const balances = new Map<string, { debit: bigint; credit: bigint; mode: Mode | null }>();
  for (const { row, mode } of modedPostings(entries)) {
    const balance = balances.get(row.account) ?? { debit: 0n, credit: 0n, mode: booksAccountMode(row.account) ?? mode };
    balances.set(row.account, { ...balance, debit: balance.debit + BigInt(row.debit), credit: balance.credit + BigInt(row.credit) });
  }
  return [...balances].map(([account, b]) => ({ account, debit: b.debit.toString(), credit: b.credit.toString(), mode: b.mode }));
}

/**
 * The postings' lines as the batch's balance changes read them: each line's account with the mode its
 * balance row takes (balanceRows' rule: a books account's own, else its entry's), in posting order.
 */
function balanceLines(entries: readonly Posted[]): TableRow[] {
  return modedPostings(entries).map(({ row, mode }, ord) => ({ ...row, balance_mode: booksAccountMode(row.account) ?? mode, ord }));
}

/**
 * The batch's entries, postings and balance changes in one statement, and its tenants' modes with them:
 * only the entries it inserts post lines and move balances, so an entry already posted (the batch is
 * applied again) posts nothing twice. A posting later than its account's last stored one (the usual
 * case: postings arrive in log order) is written with its running balance, that posting's on top (one
 * index probe per line, by the order ledger-running-balances.ts keeps). An account with a posting that
 * falls before one already stored, or whose last one has no balance, gets none in any of the batch's
 * lines: the statement answers which accounts those are, and only they settle in a later statement,
 * the batch's last (post). Writing the balance with the row spares updating every posting just written.
 */
const POST = `
  WITH inserted AS (
    INSERT INTO ledger_entries (${ENTRY_COLUMNS.join(', ')}) ${fromJson('ledger_entries', ENTRY_COLUMNS)}
    ON CONFLICT (entry_id) DO NOTHING RETURNING entry_id
  ),
  posted AS (
    INSERT INTO ledger_postings (${POSTING_COLUMNS.join(', ')}, running_balance)
    SELECT ${POSTING_COLUMNS.map((c) => `l.${c}`).join(', ')},
      CASE WHEN bool_and(last.line IS NULL OR (last.running_balance IS NOT NULL
          AND (l.recorded_at, l.commit_position, l.prepare_position, l.line) > (last.recorded_at, last.commit_position, last.prepare_position, last.line)))
        OVER (PARTITION BY l.account)
      THEN COALESCE(last.running_balance, 0)
        + sum(l.credit - l.debit) OVER (PARTITION BY l.account ORDER BY l.recorded_at, l.commit_position, l.prepare_position, l.line) END
    FROM jsonb_populate_recordset(NULL::ledger_postings, $2::jsonb) AS l
    LEFT JOIN LATERAL (
      SELECT b.recorded_at, b.commit_position, b.prepare_position, b.line, b.running_balance FROM ledger_postings b WHERE b.account = l.account
      ORDER BY b.recorded_at DESC, b.commit_position DESC, b.prepare_position DESC, b.line DESC LIMIT 1
    ) last ON true
    WHERE l.entry_id IN (SELECT entry_id FROM inserted)
    RETURNING entry_id, account, running_balance IS NULL AS unsettled
  ),
  balances AS (
    INSERT INTO ledger_balances (${BALANCE_COLUMNS.join(', ')})
    SELECT account, sum(debit)::bigint, sum(credit)::bigint, (array_agg(balance_mode ORDER BY ord))[1]
    FROM jsonb_to_recordset($2::jsonb) AS l(entry_id text, account text, debit bigint, credit bigint, balance_mode text, ord int)
    WHERE entry_id IN (SELECT entry_id FROM inserted) GROUP BY account
    ON CONFLICT (account) DO UPDATE SET ${ADD_TO_BALANCE}
  ),
  modes AS (
    INSERT INTO ledger_tenant_modes (${MODE_COLUMNS.join(', ')}) SELECT ${MODE_COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::ledger_tenant_modes, $3::jsonb)
    ON CONFLICT (tenant_id) DO UPDATE SET mode = EXCLUDED.mode
  )
  SELECT entry_id, account, unsettled FROM posted`;

/** A rebuild's batch of balance changes (one row per account) and tenants' modes, merged in one statement. */
const MERGE_BALANCES_AND_MODES = `
  WITH balances AS (
    INSERT INTO ledger_balances (${BALANCE_COLUMNS.join(', ')}) ${fromJson('ledger_balances', BALANCE_COLUMNS)}
    ON CONFLICT (account) DO UPDATE SET ${ADD_TO_BALANCE}
  )
  INSERT INTO ledger_tenant_modes (${MODE_COLUMNS.join(', ')}) SELECT ${MODE_COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::ledger_tenant_modes, $2::jsonb)
  ON CONFLICT (tenant_id) DO UPDATE SET mode = EXCLUDED.mode`;

/** `last`: the batch whose final writes the running balances settle with (settleRunningBalancesLast); without it, they settle at once. */
async function post(tx: SqlExecutor, entries: readonly Posted[], tenants: readonly TableRow[], last?: BatchContext): Promise<void> {
  const posted = await tx.query<{ entry_id: string; account: string; unsettled: boolean }>(POST, [
    JSON.stringify(entryRows(entries)),
    JSON.stringify(balanceLines(entries)),
    JSON.stringify(tenants),
  ]);
  const fresh = new Set(posted.map((row) => row.entry_id));
  const unsettled = new Set(posted.filter((row) => row.unsettled).map((row) => row.account));
  const postings = postingRows(entries.filter(({ event }) => fresh.has(event.id))).filter((posting) => unsettled.has(posting.account));
  await (last ? settleRunningBalancesLast(tx, last, postings) : settleRunningBalances(tx, postings));
}

/**
 * The batch's escrows whose account or holdings it may have changed: those it has a money event of, and
 * those whose held or frozen money its events moved. Any other's balance and holdings are as the batch
 * before it left them, and checked equal then (its balance moves only by the entries of its money events).
 */
function escrowsToCheck(events: readonly RecordedEvent[], histories: BatchHistories): string[] {
  const inBatch = new Map<string, { posts: boolean; count: number }>();
  for (const event of events) {
    if (streamKind(event.streamId) !== 'escrow') continue;
    const seen = inBatch.get(event.streamId) ?? { posts: false, count: 0 };
    inBatch.set(event.streamId, { posts: seen.posts || entryFor(event, histories, 'live') !== undefined, count: seen.count + 1 });
  }
  const holds = (state: Parameters<typeof escrowOutline>[0] | undefined) => {
    const escrow = state && escrowOutline(state);
    return escrow ? escrow.held + escrow.frozen : 0;
  };
  return [...inBatch]
    .filter(([streamId, { posts, count }]) => {
      if (posts) return true;
      const states = histories.statesAlong(streamId, escrowDecider);
      return holds(states[states.length - 1]) !== holds(states[states.length - 1 - count]);
    })
    .map(([streamId]) => streamId);
}

/** The balances of the escrows' accounts, for the check below: read in the batch's final statement (Projection.checkRead). */
function escrowBalances(streamIds: readonly string[]): BatchRead | undefined {
  if (streamIds.length === 0) return undefined;
  const accounts = streamIds.map((streamId) => ACCOUNTS.escrow(streamKey(streamId)));
  return { sql: `SELECT k.key AS account, v.balance FROM ${keyedLookup('ledger_balances', 'account', '(credit - debit)::text AS balance')}`, params: [JSON.stringify(accounts)] };
}

/** An escrow's account holds exactly what its allocations hold and disputes freeze, as its own history says. */
function assertEscrowBalances(rows: readonly { account: string; balance: string }[], streamIds: readonly string[], histories: BatchHistories): void {
  const balances = new Map(rows.map((row) => [row.account, BigInt(row.balance)]));
  for (const streamId of streamIds) {
    const escrow = escrowOutline(histories.stateOf(streamId, escrowDecider));
    const held = escrow ? escrow.held + escrow.frozen : 0;
    const account = ACCOUNTS.escrow(streamKey(streamId));
    const balance = balances.get(account) ?? 0n;
    if (balance !== BigInt(held)) throw new LedgerInvariantViolation(`${account} has a balance of ${balance} santim but holds ${held}`);
  }
}
