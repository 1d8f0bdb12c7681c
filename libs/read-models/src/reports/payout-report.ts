import { csvRow } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { streamKey } from '@app/domain';
import type { LogPosition } from '@app/event-store';
import { type PayoutLineOutcome, rangeOutcome, releasedOutcome } from '../payouts/payout-movements.reader';
import { CARRIED, payoutRangeLines } from '../payouts/payout-range.reader';
import { payoutReleasedLines } from '../payouts/payout-released.reader';
import { type PayoutLedgerLine, payoutLedgerLines } from '../payouts/payout-report.reader';
import type { PayoutView } from '../payouts/payouts.projection';
import { signedBirr } from './signed-birr';

/** One movement of a payout, as a merchant reconciles it: what caused it, how much of it was the platform's fee, and what this payout did with it (as its movements pages say). */
export interface PayoutReportLine extends PayoutLineOutcome {
  eventId: string;
  /** `OrderPaid`, `AllocationReleased`, `OrderRefundRequested`, … */
  type: string;
  /** The order or escrow it came from (`ord_…`, `esc_…`). */
  source: string;
  description: string;
  /** When it was earned (recorded). */
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
 * read from the ledger a page at a time, whose `paid` amounts sum exactly to the payout. A payout of its
 * own stream settles a range of the payable and fees, read along the accounts' index: first what an
 * earlier payout left on hold and this one paid (`RELEASED`), then the range's movements, paid or
 * `HELD`, closed by a `CARRIED` line for what its amount holds beyond them (a failed payout's return,
 * what came before the range); one of the payout account stream, the movements it listed.
 */
export async function* payoutReportPages(db: SqlExecutor, payout: PayoutView, pageSize = REPORT_PAGE): AsyncGenerator<PayoutReportLine[]> {
  if (payout.through === undefined) {
    for (let after = -1; after + 1 < (payout.movements ?? 0); after += pageSize) {
      yield (await payoutLedgerLines(db, payout.payoutId, payout.merchantId, after, pageSize)).map((line) => reportLine(line, { status: 'PAID', availableOn: null, paid: line.net }));
    }
    return;
  }
  let paid = 0;
  const counted = (lines: PayoutReportLine[]) => {
    paid += lines.reduce((sum, line) => sum + line.paid, 0);
    return lines;
  };
  for await (const rows of pagesOf((from) => payoutReleasedLines(db, payout, from, pageSize), pageSize)) {
    yield counted(rows.map((line) => reportLine(line, releasedOutcome(line))));
  }
  for await (const rows of pagesOf((from) => payoutRangeLines(db, payout, from, pageSize), pageSize)) {
    yield counted(rows.map((line) => reportLine(line, rangeOutcome(line))));
  }
  const carried = payout.amount - paid;
  if (carried !== 0) {
    const description = 'Carried: what earlier payouts left in the payable and fees (a failed payout returned, movements before this range)';
    yield [{ eventId: CARRIED, type: 'Carried', source: payout.payoutId, description, recordedAt: payout.requestedAt, gross: carried, fee: 0, net: carried, status: 'CARRIED', availableOn: null, paid: carried }];
  }
}

/** Pages of a reader of log-ordered lines, each after the last line of the one before. */
async function* pagesOf<T extends { position: LogPosition }>(read: (from: LogPosition | undefined) => Promise<T[]>, pageSize: number): AsyncGenerator<T[]> {
  let from: LogPosition | undefined;
  for (;;) {
    const rows = await read(from);
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    from = rows[rows.length - 1].position;
  }
}

function reportLine(line: PayoutLedgerLine, { status, availableOn, paid }: PayoutLineOutcome): PayoutReportLine {
  return {
    eventId: line.eventId,
    type: line.eventType,
    source: streamKey(line.streamId),
    description: line.description,
    recordedAt: line.recordedAt.toISOString(),
    gross: line.net + line.fee,
    fee: line.fee,
    net: line.net,
    status,
    availableOn,
    paid,
  };
}

/** The whole report, for the dashboard's page of one payout. */
export async function payoutReport(db: SqlExecutor, payout: PayoutView): Promise<PayoutReportLine[]> {
  const lines: PayoutReportLine[] = [];
  for await (const page of payoutReportPages(db, payout)) lines.push(...page);
  return lines;
}

export function reportLineInBirr(line: PayoutReportLine) {
  return { ...line, gross: signedBirr(line.gross), fee: signedBirr(line.fee), net: signedBirr(line.net), paid: signedBirr(line.paid) };
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

// The columns added with the holding period come last, so a reader of the first eight by position reads them as before.
const REPORT_COLUMNS = ['event_id', 'type', 'source', 'description', 'recorded_at', 'gross', 'fee', 'net', 'status', 'available_on', 'paid'];

/** The report as the API's report.csv and the dashboard's download give it, byte for byte, a page at a time. */
export async function* payoutReportCsv(pages: AsyncIterable<readonly PayoutReportLine[]>): AsyncGenerator<string> {
  yield csvRow(REPORT_COLUMNS);
  for await (const lines of pages) {
    yield lines
      .map(reportLineInBirr)
      .map((l) => csvRow([l.eventId, l.type, l.source, l.description, l.recordedAt, l.gross, l.fee, l.net, l.status, l.availableOn ?? '', l.paid]))
      .join('');
  }
}

/**
 * What the payout paid of each movement, by event id (its report's lines' `paid`): the balance
 * transactions a `payout` filter lists. A credit the holding period or the reserve split is a line of
 * each payout that paid a part of it: the part available at once under the payout that took it (its
 * `HELD` line), the part kept under the payout that released it (`RELEASED`). A line held whole, of which
 * it paid nothing, is not its; the carried line is no movement of its own.
 */
export async function payoutPaidAmounts(db: SqlExecutor, payout: PayoutView): Promise<Map<string, number>> {
  const paid = new Map<string, number>();
  for await (const page of payoutReportPages(db, payout)) {
    for (const line of page) if (line.status === 'PAID' || line.status === 'RELEASED' || (line.status === 'HELD' && line.paid !== 0)) paid.set(line.eventId, (paid.get(line.eventId) ?? 0) + line.paid);
  }
  return paid;
}
