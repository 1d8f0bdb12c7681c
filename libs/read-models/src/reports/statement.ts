import { csvRow, payoutAccounts } from '@app/audit';
import { creditAvailableOn, recoveredBy, streamKey } from '@app/domain';
import { accountPeriod } from '../ledger/account-period.reader';
import { entryNames } from '../ledger/entry-names.reader';
import { payableCreditDays } from '../ledger/payable-availability.reader';
import type { TenantModeReader } from '@app/credentials';
import type { SqlExecutor } from '@app/database';
import { signedBirr } from './signed-birr';
import type { StatementPeriod } from './statement-period';

/** One movement of the merchant's money (its payable and its fees, as one), signed santim (in: positive). */
export interface StatementMovement {
  eventId: string;
  type: string;
  /** The stream it came from: an order or escrow (`ord_…`, `esc_…`), or the merchant's payouts. */
  source: string;
  description: string;
  recordedAt: string;
  amount: number;
  /** What the movement carried before another merchant's fee (amount + fee), and that fee (a seller's release: its platform's commission; 0 on one's own lines). */
  gross: number;
  fee: number;
  /** Of a credit that came while the payable was below zero: how much of it covered the deficit (0 otherwise). */
  recovered: number;
  /**
   * A credit: the Addis Ababa day it became (or becomes) available for payout, after the holding period in
   * force when it was posted (the payable's part of it: a fee is never held, so a fee alone is available
   * on its own day). Null for a debit, which counts at once.
   */
  availableOn: string | null;
  /**
   * A credit: the share of it the rolling reserve in force when it was posted keeps (rounded down to the
   * santim), and the Addis Ababa day that share becomes available; 0 and null when none is kept.
   */
  reserve: number;
  reserveAvailableOn: string | null;
  /** By name: the other merchants or accounts the movement moves money of, and what its order, escrow or transfer says it is (entry-names.reader.ts). */
  counterparty: string | null;
  sourceDescription: string | null;
  /** The escrow and the payment order it belongs to: its source's own, or what its transfer named (entry-names.reader.ts); null when none. */
  escrowId: string | null;
  orderId: string | null;
}

export interface Statement {
  from: string;
  to: string;
  /** Santim, all signed: what the payable and fees held at `from`, what moved in [from, to), what they held at `to`. */
  opening: number;
  movements: StatementMovement[];
  closing: number;
  /** The mode of the tenant whose statement it is (docs/concepts/modes.md): its every line is of that mode's money; false for an id that names no tenant. */
  livemode: boolean;
}

/** A movement with the balance the payable and fees held right after it. */
export interface StatementLine extends StatementMovement {
  balance: number;
}

export function runningBalances(statement: Statement): StatementLine[] {
  let balance = statement.opening;
  return statement.movements.map((movement) => {
    balance += movement.amount;
    return { ...movement, balance };
  });
}

// The columns added since the first eight come last, so a reader of those by position reads them as before.
const STATEMENT_COLUMNS = ['recorded_at', 'event_id', 'type', 'source', 'description', 'available_on', 'amount', 'balance', 'recovered', 'gross', 'fee', 'counterparty', 'source_description', 'livemode', 'escrow_id', 'order_id', 'reserve', 'reserve_available_on'] as const;

/** A line of the CSV by its columns' names: one it does not name is empty, so every line has every column in its place. */
const csvLine = (values: Partial<Record<(typeof STATEMENT_COLUMNS)[number], string | number>>) => csvRow(STATEMENT_COLUMNS.map((column) => values[column] ?? ''));

/** The statement as the API's statement.csv and the consoles' downloads give it, byte for byte: an opening line, one per movement, a closing line, each with the statement's mode. */
export function statementCsv(statement: Statement): string {
  const livemode = String(statement.livemode);
  const movement = (m: StatementLine) =>
    csvLine({
      recorded_at: m.recordedAt,
      event_id: m.eventId,
      type: m.type,
      source: m.source,
      description: m.description,
      available_on: m.availableOn ?? '',
      amount: signedBirr(m.amount),
      balance: signedBirr(m.balance),
      recovered: signedBirr(m.recovered),
      gross: signedBirr(m.gross),
      fee: signedBirr(m.fee),
      counterparty: m.counterparty ?? '',
      source_description: m.sourceDescription ?? '',
      livemode,
      escrow_id: m.escrowId ?? '',
      order_id: m.orderId ?? '',
      reserve: signedBirr(m.reserve),
      reserve_available_on: m.reserveAvailableOn ?? '',
    });
  return [
    csvRow(STATEMENT_COLUMNS),
    csvLine({ recorded_at: statement.from, type: 'OPENING', description: 'Opening balance', balance: signedBirr(statement.opening), livemode }),
    ...runningBalances(statement).map(movement),
    csvLine({ recorded_at: statement.to, type: 'CLOSING', description: 'Closing balance', balance: signedBirr(statement.closing), livemode }),
  ].join('');
}

/**
 * The merchant's statement over the period, read from the ledger: what the API, the dashboard and the
 * audit console all show. It reads the accounts a payout takes (payoutAccounts), so a platform's fees
 * are lines of its statement as they are of its payouts. The opening is what they held at `from` (every movement before it),
 * the closing the opening plus the movements of the period, so the two always reconcile (the
 * movements are the ledger's postings, in log order, each with the event that caused it). A credit
 * that came while the balance was below zero is marked with what of it covered the deficit, and every
 * credit with the day it became available and what its reserve keeps until when; each names the other parties and what its source is. It says
 * its owner's mode (a seller account's is its platform's), which every one of its lines is in.
 */
export async function readStatement(db: SqlExecutor, merchantId: string, period: StatementPeriod, modes: TenantModeReader): Promise<Statement> {
  const from = new Date(period.from);
  const to = new Date(period.to);
  const [{ opening, postings }, creditDays, mode] = await Promise.all([
    accountPeriod(db, payoutAccounts(merchantId), from, to),
    payableCreditDays(db, merchantId, from, to),
    modes.modeOf(merchantId),
  ]);
  const names = await entryNames(
    db,
    merchantId,
    postings.map((posting) => ({ eventId: posting.eventId, source: streamKey(posting.streamId) })),
  );
  let balance = opening;
  const movements = postings.map((posting): StatementMovement => {
    const recovered = recoveredBy(balance, posting.amount);
    const days = posting.amount > 0 ? creditDays.get(posting.eventId) : undefined;
    balance += posting.amount;
    return {
      eventId: posting.eventId,
      type: posting.eventType,
      source: streamKey(posting.streamId),
      description: posting.description,
      recordedAt: posting.recordedAt.toISOString(),
      amount: posting.amount,
      gross: posting.amount + posting.fee,
      fee: posting.fee,
      recovered,
      availableOn: posting.amount > 0 ? (days?.availableOn ?? creditAvailableOn(posting.recordedAt, 0)) : null,
      reserve: days?.reserve ?? 0,
      reserveAvailableOn: days?.reserveAvailableOn ?? null,
      counterparty: names.get(posting.eventId)?.counterparty ?? null,
      sourceDescription: names.get(posting.eventId)?.sourceDescription ?? null,
      escrowId: names.get(posting.eventId)?.escrowId ?? null,
      orderId: names.get(posting.eventId)?.orderId ?? null,
    };
  });
  return { from: period.from, to: period.to, opening, movements, closing: balance, livemode: mode === 'live' };
}
