import type { SqlExecutor } from '@app/database';
import { escrowDecider, type EscrowOutline, escrowOutline, streamKey, streamKind } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { writeLast } from '../projector/batch-writes';
import type { BatchContext, BulkWriter, Projection, TableRow } from '../projector/projection';
import type { BatchHistories } from '../projector/stream-histories';

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

const HOLDING_COLUMNS = ['escrow_id', 'merchant_id', 'seq', 'held', 'frozen', 'valid_from', 'valid_to'];

/** The escrow's holdings after the first `length` events of its history, from the states the batch folded it through (shared with the other projections that fold it). */
function holdingRowsOf(streamId: string, histories: BatchHistories, length?: number): TableRow[] {
  const outlines = histories.statesAlong(streamId, escrowDecider).slice(0, length).map(escrowOutline);
  return holdingsOf(histories.of(streamId).slice(0, length), outlines).map((h, seq) => ({ escrow_id: h.escrowId, merchant_id: h.merchantId, seq, held: h.held, frozen: h.frozen, valid_from: h.validFrom, valid_to: h.validTo }));
}

const holdingKey = (row: TableRow) => `${row.merchant_id as string}\u0000${row.seq as number}`;
const sameHolding = (a: TableRow, b: TableRow) =>
  a.held === b.held && a.frozen === b.frozen && (a.valid_from as Date).getTime() === (b.valid_from as Date).getTime() && (a.valid_to as Date | null)?.getTime() === (b.valid_to as Date | null)?.getTime();

/**
 * The rows the batch's escrows no longer have, by key. Sent with the upsert of the rows that changed
 * (UPSERT_HOLDINGS) as the batch's final writes; the two touch different rows, so neither needs to see the other's.
 */
const DELETE_GONE_HOLDINGS = `
  DELETE FROM allocation_holdings h USING unnest($1::text[], $2::text[], $3::int[]) AS g(escrow_id, merchant_id, seq)
  WHERE h.escrow_id = g.escrow_id AND h.merchant_id = g.merchant_id AND h.seq = g.seq`;

const UPSERT_HOLDINGS = `
  INSERT INTO allocation_holdings (${HOLDING_COLUMNS.join(', ')})
  SELECT ${HOLDING_COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::allocation_holdings, $1::jsonb)
  ON CONFLICT (escrow_id, merchant_id, seq) DO UPDATE SET held = EXCLUDED.held, frozen = EXCLUDED.frozen, valid_from = EXCLUDED.valid_from, valid_to = EXCLUDED.valid_to`;

/**
 * What each allocation held when (the balance's pending and frozen money, now or as of an instant).
 * An escrow's rows are folded from its whole history whenever a batch touches it (an escrow's history
 * is short), and only those that differ from what its history before the batch made are written. Which escrows each payee has a share in
 * (`escrow_allocations`) follows the escrow's row in the payables view, in the same statement
 * (payables.projection.ts); the projection keeps its name, so its recorded version still holds.
 */
export const escrowAllocationsView: Projection = {
  name: 'escrow_allocations',
  // 2: an escrow part released and part refunded is PARTIALLY_REFUNDED, no longer REFUNDED.
  version: 2,
  tables: ['allocation_holdings'],
  folds: isEscrowStream,
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
    const { holdings, gone } = holdingsChanged(events, context.histories);
    if (gone.length > 0) await writeLast(tx, context, DELETE_GONE_HOLDINGS, (['escrow_id', 'merchant_id', 'seq'] as const).map((key) => gone.map((h) => h[key])));
    if (holdings.length > 0) await writeLast(tx, context, UPSERT_HOLDINGS, [JSON.stringify(holdings)]);
  },
  // The copies' rows of an escrow an earlier batch wrote go, and every escrow's rows are copied in (COPY):
  // what the upsert above leaves, without PostgreSQL matching each row to the one it replaces.
  async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[], { histories }: BatchContext) {
    const { holdings, rewritten } = holdingsAfter(events, histories);
    if (rewritten.length > 0) await writer.query(`DELETE FROM allocation_holdings WHERE escrow_id = ANY($1::text[])`, [rewritten]);
    await writer.append('allocation_holdings', HOLDING_COLUMNS, holdings);
  },
};

/**
 * What the batch changes of its escrows' holdings: the rows to write (new, or holding other values than
 * before) and those to delete (`gone`, of escrows it did not open). The rows there are the holdings of
 * each escrow's history before the batch's first event of it, as the batches before wrote them (their
 * checkpoint moved with their writes): folded again here rather than read, so a release writes the one
 * row it closes and not the escrow's others again. An escrow this batch opens has no holdings written
 * yet, and one that is only created holds nothing (nothing is held before the payment): a batch of new
 * escrows (a busy hour's creates) folds and writes nothing.
 */
function holdingsChanged(events: readonly RecordedEvent[], histories: BatchHistories): { holdings: TableRow[]; gone: TableRow[] } {
  const firsts = new Map<string, bigint>();
  for (const event of events) if (isEscrowStream(event.streamId) && !firsts.has(event.streamId)) firsts.set(event.streamId, event.revision);
  const holdings: TableRow[] = [];
  const gone: TableRow[] = [];
  for (const [streamId, first] of firsts) {
    if (first === 0n && histories.of(streamId).length === 1) continue;
    const after = holdingRowsOf(streamId, histories);
    const before = new Map((first === 0n ? [] : holdingRowsOf(streamId, histories, Number(first))).map((row) => [holdingKey(row), row]));
    for (const row of after) {
      const was = before.get(holdingKey(row));
      before.delete(holdingKey(row));
      if (!was || !sameHolding(was, row)) holdings.push(row);
    }
    gone.push(...before.values());
  }
  return { holdings, gone };
}

/** Every holding of the batch's escrows, and which of them may have rows already (`rewritten`: those it did not open): what a rebuild copies in. */
function holdingsAfter(events: readonly RecordedEvent[], histories: BatchHistories): { holdings: TableRow[]; rewritten: string[] } {
  const opened = new Set(events.filter((event) => event.revision === 0n).map((event) => event.streamId));
  const escrows = [...histories.streams()].filter((streamId) => isEscrowStream(streamId) && !(opened.has(streamId) && histories.of(streamId).length === 1));
  return {
    holdings: escrows.flatMap((streamId) => holdingRowsOf(streamId, histories)),
    rewritten: escrows.filter((streamId) => !opened.has(streamId)).map(streamKey),
  };
}
