import type { SqlExecutor } from '@app/database';
import { type EscrowEvent, type EscrowOutline, escrowOutlinesAlong, streamKey, streamKind } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import type { BatchContext, Projection, TableRow } from './projection';

const isEscrowStream = (streamId: string) => streamKind(streamId) === 'escrow';

/** What one allocation of an escrow held (released or refunded nothing of yet) and what a dispute froze, from `validFrom` until `validTo`. */
interface Holding {
  escrowId: string;
  merchantId: string;
  held: number;
  frozen: number;
  validFrom: Date;
  validTo: Date | null;
}

/**
 * Each allocation's holdings over the escrow's history, one per change, from the time of the event
 * that made it (the time its ledger postings carry, so a holding as of an instant and the escrow's
 * account as of that instant agree). Holdings of nothing are left out, and so is one that an event
 * of the same instant replaced: neither changes a sum as of any instant.
 */
function holdingsOf(history: readonly RecordedEvent[], outlines: readonly (EscrowOutline | undefined)[]): Holding[] {
  const holdings: Holding[] = [];
  const open = new Map<string, Holding>();
  for (const [n, event] of history.entries()) {
    const escrow = outlines[n];
    if (!escrow) continue;
    for (const allocation of escrow.allocations) {
      const before = open.get(allocation.merchantId);
      if (before && before.held === allocation.held && before.frozen === allocation.frozen) continue;
      if (before) {
        before.validTo = event.recordedAt;
        if (before.validFrom.getTime() < event.recordedAt.getTime()) holdings.push(before);
        open.delete(allocation.merchantId);
      }
      if (allocation.held > 0 || allocation.frozen > 0) {
        open.set(allocation.merchantId, {
          escrowId: escrow.terms.escrowId,
          merchantId: allocation.merchantId,
          held: allocation.held,
          frozen: allocation.frozen,
          validFrom: event.recordedAt,
          validTo: null,
        });
      }
    }
  }
  return [...holdings, ...open.values()];
}

const MEMBER_COLUMNS = ['merchant_id', 'escrow_id', 'creator_id', 'status', 'created_at'];
const HOLDING_COLUMNS = ['escrow_id', 'merchant_id', 'seq', 'held', 'frozen', 'valid_from', 'valid_to'];

/** The escrow's rows after its history: one per allocation (whose it is, the escrow's status and creation), and its holdings. */
function rowsOf(streamId: string, history: readonly RecordedEvent[]): { members: TableRow[]; holdings: TableRow[] } {
  const outlines = escrowOutlinesAlong(history as unknown as EscrowEvent[]);
  const escrow = outlines[outlines.length - 1];
  if (!escrow) return { members: [], holdings: [] };
  const createdAt = history[0].recordedAt;
  const members = escrow.allocations.map((a) => ({ merchant_id: a.merchantId, escrow_id: streamKey(streamId), creator_id: escrow.terms.merchantId, status: escrow.status, created_at: createdAt }));
  const holdings = holdingsOf(history, outlines).map((h, seq) => ({ escrow_id: h.escrowId, merchant_id: h.merchantId, seq, held: h.held, frozen: h.frozen, valid_from: h.validFrom, valid_to: h.validTo }));
  return { members, holdings };
}

const fromJson = (table: string, columns: readonly string[]) => `SELECT ${columns.join(', ')} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)`;

/**
 * Which escrows each merchant has an allocation in, whoever created them (an account's list of its
 * escrows), and what each allocation held when (the balance's pending and frozen money, now or as of
 * an instant). An escrow's rows are written again from its whole history whenever a batch touches it:
 * an escrow's history is short, and rows written again come out the same.
 */
export const escrowAllocationsView: Projection = {
  name: 'escrow_allocations',
  // 2: an escrow part released and part refunded is PARTIALLY_REFUNDED, no longer REFUNDED.
  version: 2,
  tables: ['escrow_allocations', 'allocation_holdings'],
  folds: isEscrowStream,
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], { histories }: BatchContext) {
    const escrows = [...histories.streams()].filter(isEscrowStream);
    if (escrows.length === 0) return;
    const rows = escrows.map((streamId) => rowsOf(streamId, histories.of(streamId)));
    const members = rows.flatMap((r) => r.members);
    const holdings = rows.flatMap((r) => r.holdings);
    if (members.length > 0) {
      await tx.query(
        `INSERT INTO escrow_allocations (${MEMBER_COLUMNS.join(', ')}) ${fromJson('escrow_allocations', MEMBER_COLUMNS)}
         ON CONFLICT (merchant_id, escrow_id) DO UPDATE SET status = EXCLUDED.status`,
        [JSON.stringify(members)],
      );
    }
    // An escrow this batch opens has no holdings written yet: a batch of new escrows (a busy hour's creates) deletes nothing.
    const opened = new Set(events.filter((event) => event.revision === 0n).map((event) => event.streamId));
    const rewritten = escrows.filter((streamId) => !opened.has(streamId));
    if (rewritten.length > 0) await tx.query(`DELETE FROM allocation_holdings WHERE escrow_id = ANY($1::text[])`, [rewritten.map(streamKey)]);
    if (holdings.length > 0) await tx.query(`INSERT INTO allocation_holdings (${HOLDING_COLUMNS.join(', ')}) ${fromJson('allocation_holdings', HOLDING_COLUMNS)}`, [JSON.stringify(holdings)]);
  },
};
