import { type JournalEntry, journalFor, refundCompletionEntry } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { type EscrowState, heldAmount, type OrderState, type Santim } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import type { Projection } from './projection';

export class LedgerInvariantViolation extends Error {
  constructor(message: string) {
    super(`ledger invariant violated: ${message}`);
    this.name = 'LedgerInvariantViolation';
  }
}

const payableId = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

interface Posted {
  event: RecordedEvent;
  entry: JournalEntry;
}

/**
 * DESIGN §7 as a projection: one balanced journal entry per money event, postings in integer santim,
 * and running balances. Its invariants are checked as it applies each batch; a violation rolls the
 * batch back and stops the projector rather than let a wrong balance be written. A batch's entries,
 * postings and balance changes are written one statement each, so a batch costs the same few round
 * trips however many money events it holds.
 */
export const ledgerProjection: Projection = {
  name: 'ledger',
  tables: ['ledger_entries', 'ledger_postings', 'ledger_balances'],
  dependsOn: ['orders_view', 'escrows_view'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]) {
    const entries: Posted[] = [];
    for (const event of events) {
      const entry = await entryFor(tx, event);
      if (entry) entries.push({ event, entry: balanced(event, entry) });
    }
    if (entries.length === 0) return;
    await post(tx, entries);
    const touchedEscrows = new Set(entries.filter((e) => e.event.streamId.startsWith('escrow-')).map((e) => payableId(e.event.streamId)));
    await assertEscrowBalances(tx, [...touchedEscrows]);
  },
};

async function entryFor(tx: SqlExecutor, event: RecordedEvent): Promise<JournalEntry | undefined> {
  const data = event.data as Record<string, unknown>;
  const id = payableId(event.streamId);
  if (event.type === 'OrderPaid') {
    const [order] = await tx.query<{ merchant_id: string }>(`SELECT merchant_id FROM orders_view WHERE order_id = $1`, [id]);
    return journalFor(event.type, data, { id, orderMerchantId: order?.merchant_id });
  }
  if (event.type === 'EscrowRefundCompleted' || event.type === 'OrderRefundCompleted') {
    const [view] = await tx.query<{ state: EscrowState | OrderState }>(
      event.type === 'EscrowRefundCompleted' ? `SELECT state FROM escrows_view WHERE escrow_id = $1` : `SELECT state FROM orders_view WHERE order_id = $1`,
      [id],
    );
    const refund = view?.state.refunds.find((r) => r.refundId === data.refundId);
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
const POSTING_COLUMNS = ['entry_id', 'line', 'account', 'debit', 'credit', 'commit_position', 'prepare_position', 'recorded_at'];

async function post(tx: SqlExecutor, entries: readonly Posted[]): Promise<void> {
  const position = (event: RecordedEvent) => ({
    commit_position: event.position.commit.toString(),
    prepare_position: event.position.prepare.toString(),
    recorded_at: event.recordedAt,
  });
  const rows = entries.map(({ event, entry }) => ({
    entry_id: event.id,
    event_id: event.id,
    stream_id: event.streamId,
    event_type: event.type,
    description: entry.description,
    ...position(event),
  }));
  // An entry already posted (the batch is applied again) posts nothing twice.
  const inserted = await tx.query<{ entry_id: string }>(
    `INSERT INTO ledger_entries (${ENTRY_COLUMNS.join(', ')}) ${fromJson('ledger_entries', ENTRY_COLUMNS)}
     ON CONFLICT (entry_id) DO NOTHING RETURNING entry_id`,
    [JSON.stringify(rows)],
  );
  const fresh = new Set(inserted.map((row) => row.entry_id));
  const postings = entries
    .filter(({ event }) => fresh.has(event.id))
    .flatMap(({ event, entry }) =>
      entry.lines.map((line, index) => ({ entry_id: event.id, line: index + 1, account: line.account, debit: line.debit, credit: line.credit, ...position(event) })),
    );
  if (postings.length === 0) return;
  await tx.query(`INSERT INTO ledger_postings (${POSTING_COLUMNS.join(', ')}) ${fromJson('ledger_postings', POSTING_COLUMNS)}`, [JSON.stringify(postings)]);
  // One row per account: an upsert may not touch the same row twice in one statement.
  const balances = new Map<string, { debit: bigint; credit: bigint }>();
  for (const posting of postings) {
    const balance = balances.get(posting.account) ?? { debit: 0n, credit: 0n };
    balances.set(posting.account, { debit: balance.debit + BigInt(posting.debit), credit: balance.credit + BigInt(posting.credit) });
  }
  await tx.query(
    `INSERT INTO ledger_balances (account, debit, credit) ${fromJson('ledger_balances', ['account', 'debit', 'credit'])}
     ON CONFLICT (account) DO UPDATE SET debit = ledger_balances.debit + EXCLUDED.debit, credit = ledger_balances.credit + EXCLUDED.credit`,
    [JSON.stringify([...balances].map(([account, b]) => ({ account, debit: b.debit.toString(), credit: b.credit.toString() })))],
  );
}

async function assertEscrowBalances(tx: SqlExecutor, escrowIds: readonly string[]): Promise<void> {
  if (escrowIds.length === 0) return;
  const rows = await tx.query<{ escrow_id: string; balance: string; state: EscrowState }>(
    `SELECT v.escrow_id, (COALESCE(b.credit, 0) - COALESCE(b.debit, 0))::text AS balance, v.state
     FROM escrows_view v LEFT JOIN ledger_balances b ON b.account = 'escrow:' || v.escrow_id WHERE v.escrow_id = ANY($1::text[])`,
    [escrowIds],
  );
  for (const row of rows) {
    const held: Santim = heldAmount(row.state);
    if (BigInt(row.balance) !== BigInt(held)) {
      throw new LedgerInvariantViolation(`escrow:${row.escrow_id} has a balance of ${row.balance} santim but holds ${held}`);
    }
  }
}
