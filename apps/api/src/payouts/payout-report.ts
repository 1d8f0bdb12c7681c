import { ACCOUNTS, csvRow } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { type PayoutView, streamKey } from '@app/read-models';
import { signedBirr } from './signed-birr';

/** One movement a payout pays out, as a merchant reconciles it: what caused it and how much of it was the platform's fee. */
export interface PayoutReportLine {
  eventId: string;
  /** `OrderPaid`, `AllocationReleased`, `OrderRefundRequested`, … */
  type: string;
  /** The order or escrow it came from (`ord_…`, `esc_…`). */
  source: string;
  description: string;
  recordedAt: string;
  /** Signed santim: what the movement carried before the fee, the fee, and what reached the payable (negative: money back out). */
  gross: number;
  fee: number;
  net: number;
}

const LINES = `
  SELECT e.event_id, e.event_type, e.stream_id, e.recorded_at, e.description,
         SUM(CASE WHEN p.account = $2 THEN p.credit - p.debit ELSE 0 END)::bigint AS net,
         SUM(CASE WHEN p.account LIKE 'merchant:%:fees' THEN p.credit - p.debit ELSE 0 END)::bigint AS fee
  FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.entry_id
  WHERE e.event_id = ANY($1::text[])
  GROUP BY e.entry_id, e.event_id, e.event_type, e.stream_id, e.recorded_at, e.description, e.commit_position, e.prepare_position
  ORDER BY e.commit_position, e.prepare_position`;

/**
 * The payout's reconciliation report (like Stripe's payout reconciliation): every movement it settles,
 * read from the ledger, whose net amounts sum exactly to the payout.
 */
export async function payoutReport(db: SqlExecutor, payout: PayoutView): Promise<PayoutReportLine[]> {
  const rows = await db.query<{ event_id: string; event_type: string; stream_id: string; recorded_at: Date; description: string; net: string; fee: string }>(LINES, [
    payout.settles.map((m) => m.eventId),
    ACCOUNTS.merchantPayable(payout.merchantId),
  ]);
  return rows.map((row) => {
    const net = Number(row.net);
    const fee = Number(row.fee);
    return {
      eventId: row.event_id,
      type: row.event_type,
      source: streamKey(row.stream_id),
      description: row.description,
      recordedAt: new Date(row.recorded_at).toISOString(),
      gross: net + fee,
      fee,
      net,
    };
  });
}

export function reportLineInBirr(line: PayoutReportLine) {
  return { ...line, gross: signedBirr(line.gross), fee: signedBirr(line.fee), net: signedBirr(line.net) };
}

const REPORT_COLUMNS = ['event_id', 'type', 'source', 'description', 'recorded_at', 'gross', 'fee', 'net'];

/** The report as the API's report.csv and the dashboard's download give it, byte for byte. */
export function payoutReportCsv(lines: readonly PayoutReportLine[]): string {
  return [
    csvRow(REPORT_COLUMNS),
    ...lines.map(reportLineInBirr).map((l) => csvRow([l.eventId, l.type, l.source, l.description, l.recordedAt, l.gross, l.fee, l.net])),
  ].join('');
}
