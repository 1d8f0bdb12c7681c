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

/**
 * DESIGN §7 as a projection: one balanced journal entry per money event, postings in integer santim,
 * and running balances. Its invariants are checked as it applies each batch; a violation rolls the
 * batch back and stops the projector rather than let a wrong balance be written.
 */
export const ledgerProjection: Projection = {
  name: 'ledger',
  tables: ['ledger_entries', 'ledger_postings', 'ledger_balances'],
  dependsOn: ['orders_view', 'escrows_view'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]) {
    const touchedEscrows = new Set<string>();
    for (const event of events) {
      const entry = await entryFor(tx, event);
      if (!entry) continue;
      await post(tx, event, entry);
      if (event.streamId.startsWith('escrow-')) touchedEscrows.add(payableId(event.streamId));
    }
    for (const escrowId of touchedEscrows) await assertEscrowBalance(tx, escrowId);
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

async function post(tx: SqlExecutor, event: RecordedEvent, entry: JournalEntry): Promise<void> {
  const debits = entry.lines.reduce((sum, line) => sum + line.debit, 0);
  const credits = entry.lines.reduce((sum, line) => sum + line.credit, 0);
  if (debits !== credits || debits <= 0 || !Number.isSafeInteger(debits)) {
    throw new LedgerInvariantViolation(`entry for event ${event.id} debits ${debits} and credits ${credits}`);
  }
  const position = [event.position.commit.toString(), event.position.prepare.toString()];
  const inserted = await tx.query(
    `INSERT INTO ledger_entries (entry_id, event_id, stream_id, event_type, commit_position, prepare_position, recorded_at, description)
     VALUES ($1, $1, $2, $3, $4, $5, $6, $7) ON CONFLICT (entry_id) DO NOTHING RETURNING entry_id`,
    [event.id, event.streamId, event.type, ...position, event.recordedAt, entry.description],
  );
  if (inserted.length === 0) return;
  for (const [index, line] of entry.lines.entries()) {
    await tx.query(
      `INSERT INTO ledger_postings (entry_id, line, account, debit, credit, commit_position, prepare_position, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [event.id, index + 1, line.account, line.debit, line.credit, ...position, event.recordedAt],
    );
    await tx.query(
      `INSERT INTO ledger_balances (account, debit, credit) VALUES ($1, $2, $3)
       ON CONFLICT (account) DO UPDATE SET debit = ledger_balances.debit + $2, credit = ledger_balances.credit + $3`,
      [line.account, line.debit, line.credit],
    );
  }
}

async function assertEscrowBalance(tx: SqlExecutor, escrowId: string): Promise<void> {
  const [row] = await tx.query<{ balance: string; state: EscrowState }>(
    `SELECT (COALESCE(b.credit, 0) - COALESCE(b.debit, 0))::text AS balance, v.state
     FROM escrows_view v LEFT JOIN ledger_balances b ON b.account = 'escrow:' || v.escrow_id WHERE v.escrow_id = $1`,
    [escrowId],
  );
  if (!row) return;
  const held: Santim = heldAmount(row.state);
  if (BigInt(row.balance) !== BigInt(held)) {
    throw new LedgerInvariantViolation(`escrow:${escrowId} has a balance of ${row.balance} santim but holds ${held}`);
  }
}
