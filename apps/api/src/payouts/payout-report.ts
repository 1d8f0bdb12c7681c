import { csvRow } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { streamKey } from '@app/domain';
import type { LogPosition } from '@app/event-store';
import { CARRIED, payoutCarried, type PayoutLedgerLine, payoutLedgerLines, payoutRangeLines, type PayoutView } from '@app/read-models';
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
  /** Signed santim: what the movement carried before another's fee, that fee, and what reached the merchant's payable and fees (negative: money back out). */
  gross: number;
  fee: number;
  net: number;
}

/** Report lines come a page at a time: a payout of 20,000 movements is never one query's answer or one string. */
export const REPORT_PAGE = 1_000;

/**
 * The payout's reconciliation report (like Stripe's payout reconciliation): every movement it settles,
 * read from the ledger a page at a time, whose net amounts sum exactly to the payout. A payout of its
 * own stream settles a range of the payable and fees, read along the accounts' index, closed by a `carried`
 * line for what its amount holds beyond the range (a failed payout's return, what came before it);
 * one of the payout account stream, the movements it listed.
 */
export async function* payoutReportPages(db: SqlExecutor, payout: PayoutView, pageSize = REPORT_PAGE): AsyncGenerator<PayoutReportLine[]> {
  if (payout.through === undefined) {
    for (let after = -1; after + 1 < (payout.movements ?? 0); after += pageSize) yield (await payoutLedgerLines(db, payout.payoutId, payout.merchantId, after, pageSize)).map(reportLine);
    return;
  }
  let from: LogPosition | undefined;
  for (;;) {
    const lines = await payoutRangeLines(db, payout, from, pageSize);
    if (lines.length > 0) yield lines.map(reportLine);
    if (lines.length < pageSize) break;
    from = lines[lines.length - 1].position;
  }
  const carried = await payoutCarried(db, payout);
  if (carried !== 0) {
    const description = 'Carried: what earlier payouts left in the payable and fees (a failed payout returned, movements before this range)';
    yield [{ eventId: CARRIED, type: 'Carried', source: payout.payoutId, description, recordedAt: payout.requestedAt, gross: carried, fee: 0, net: carried }];
  }
}

function reportLine(line: PayoutLedgerLine): PayoutReportLine {
  return {
    eventId: line.eventId,
    type: line.eventType,
    source: streamKey(line.streamId),
    description: line.description,
    recordedAt: line.recordedAt.toISOString(),
    gross: line.net + line.fee,
    fee: line.fee,
    net: line.net,
  };
}

/** The whole report, for the dashboard's page of one payout. */
export async function payoutReport(db: SqlExecutor, payout: PayoutView): Promise<PayoutReportLine[]> {
  const lines: PayoutReportLine[] = [];
  for await (const page of payoutReportPages(db, payout)) lines.push(...page);
  return lines;
}

export function reportLineInBirr(line: PayoutReportLine) {
  return { ...line, gross: signedBirr(line.gross), fee: signedBirr(line.fee), net: signedBirr(line.net) };
}

/**
 * The report's JSON answer, its lines written a page at a time as the ledger answers them: `answer` is
 * the envelope with no lines, into whose `lines` they go.
 */
export async function* payoutReportJson(answer: { data: { lines: [] } }, pages: AsyncIterable<readonly PayoutReportLine[]>): AsyncGenerator<string> {
  // All but the closing `]}}` of the empty lines.
  yield JSON.stringify(answer).slice(0, -3);
  let first = true;
  for await (const lines of pages) {
    if (lines.length === 0) continue;
    yield `${first ? '' : ','}${lines.map((line) => JSON.stringify(reportLineInBirr(line))).join(',')}`;
    first = false;
  }
  yield ']}}';
}

const REPORT_COLUMNS = ['event_id', 'type', 'source', 'description', 'recorded_at', 'gross', 'fee', 'net'];

/** The report as the API's report.csv and the dashboard's download give it, byte for byte, a page at a time. */
export async function* payoutReportCsv(pages: AsyncIterable<readonly PayoutReportLine[]>): AsyncGenerator<string> {
  yield csvRow(REPORT_COLUMNS);
  for await (const lines of pages) {
    yield lines
      .map(reportLineInBirr)
      .map((l) => csvRow([l.eventId, l.type, l.source, l.description, l.recordedAt, l.gross, l.fee, l.net]))
      .join('');
  }
}
