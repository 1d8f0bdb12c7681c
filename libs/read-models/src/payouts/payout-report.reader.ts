import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';

/** One ledger entry a payout settles, signed santim: what reached the merchant's payable and what went to a fees account with it. */
export interface PayoutLedgerLine {
  eventId: string;
  eventType: string;
  streamId: string;
  description: string;
  recordedAt: Date;
  net: number;
  fee: number;
}

/**
 * An entry's fee is its fees line, whoever earns it: on an allocation the escrow's creator earns the
 * fee taken out of the allocated merchant's gross (libs/audit/src/ledger-rules.ts), so a seller's line
 * reads as its allocation was released: gross, fee, net. A line worded for the payable's own side (a
 * transfer's "to" or "from") reads so. A movement's event id is its entry's id (ledger.projection.ts, entryRows).
 */
const LINES = `
  SELECT e.event_id, e.event_type, e.stream_id, e.recorded_at, COALESCE(MAX(CASE WHEN p.account = $2 THEN p.memo END), e.description) AS description,
         SUM(CASE WHEN p.account = $2 THEN p.credit - p.debit ELSE 0 END)::bigint AS net,
         SUM(CASE WHEN ${ACCOUNTS.merchantFees.matches('p.account')} THEN p.credit - p.debit ELSE 0 END)::bigint AS fee
  FROM payout_movements m JOIN ledger_entries e ON e.entry_id = m.event_id JOIN ledger_postings p ON p.entry_id = e.entry_id
  WHERE m.payout_id = $1 AND m.seq > $3 AND m.seq <= $3 + $4
  GROUP BY m.seq, e.entry_id, e.event_id, e.event_type, e.stream_id, e.recorded_at, e.description
  ORDER BY m.seq, e.entry_id`;

/** A report line's row as both a movement-list payout's and a range payout's queries give it. */
export interface LedgerLineRow {
  event_id: string;
  event_type: string;
  stream_id: string;
  recorded_at: Date;
  description: string;
  net: string;
  fee: string;
}

export function ledgerLineOf(row: LedgerLineRow): PayoutLedgerLine {
  return {
    eventId: row.event_id,
    eventType: row.event_type,
    streamId: row.stream_id,
    description: row.description,
    recordedAt: new Date(row.recorded_at),
    net: Number(row.net),
    fee: Number(row.fee),
  };
}

/** The ledger entries of the payout's movements after the `after`-th (from -1), at most `limit` movements' worth, in the payout's order. */
export async function payoutLedgerLines(db: SqlExecutor, payoutId: string, merchantId: string, after: number, limit: number): Promise<PayoutLedgerLine[]> {
  const rows = await db.query<LedgerLineRow>(LINES, [payoutId, ACCOUNTS.merchantPayable(merchantId), after, limit]);
  return rows.map(ledgerLineOf);
}
