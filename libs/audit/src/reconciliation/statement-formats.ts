import { parse } from 'csv-parse/sync';
import { addisDay, addisDayOf, InvalidInput, MAX_SANTIM, type Mode, type Santim } from '@app/domain';
import type { LineStatus, MovementKind, StatementLine } from './statement';

/** A statement file that cannot be read as its provider's format: nothing is reconciled or recorded. */
export class StatementUnreadable extends InvalidInput {
  constructor(message: string) {
    super(message, 'STATEMENT_UNREADABLE');
  }
}

export const STATEMENT_PROVIDERS = ['sandbox', 'chapa'] as const;
export type StatementProvider = (typeof STATEMENT_PROVIDERS)[number];

/**
 * Whose books a provider's statement is reconciled against (docs/concepts/modes.md): the sandbox
 * carries test mode's money only, Chapa live mode's only, so neither is ever matched against the other's.
 */
export const STATEMENT_MODES: Readonly<Record<StatementProvider, Mode>> = { sandbox: 'test', chapa: 'live' };

export function isStatementProvider(value: string): value is StatementProvider {
  return (STATEMENT_PROVIDERS as readonly string[]).includes(value);
}

/** The columns of the sandbox's statement (ours: the sandbox is our own provider). */
export const SANDBOX_STATEMENT_COLUMNS = ['time', 'type', 'status', 'amount', 'fee', 'currency', 'reference', 'provider_reference', 'order_id'] as const;

/**
 * The columns of a Chapa statement as the Chapa simulator writes it. Chapa documents no statement
 * file; these are the fields its "All Transactions" (https://developer.chapa.co/transactions/all-transactions)
 * and "All Transfers" (https://developer.chapa.co/docs/all-transfers) answers give each item, plus
 * the `tx_ref` that verification returns (https://developer.chapa.co/integrations/verify-payments).
 */
export const CHAPA_STATEMENT_COLUMNS = ['created_at', 'updated_at', 'type', 'status', 'currency', 'amount', 'charge', 'ref_id', 'tx_ref', 'reference', 'payment_method'] as const;

const ETB_TEXT = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/** Decimal text of birr into santim, digit by digit: a float never holds the amount. */
function santimOf(text: string, what: string): Santim {
  const match = ETB_TEXT.exec(text);
  if (!match) throw new StatementUnreadable(`${what} is "${text}", not an amount of birr with at most 2 decimals`);
  const value = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (value > MAX_SANTIM) throw new StatementUnreadable(`${what} is more than ${MAX_SANTIM / 100} birr`);
  return value as Santim;
}

function instantOf(text: string, what: string): string {
  const parsed = Date.parse(text);
  if (text === '' || Number.isNaN(parsed)) throw new StatementUnreadable(`${what} is "${text}", not a date and time`);
  return new Date(parsed).toISOString();
}

/** The data rows by their header's names, each with the line of the file it ends on. */
function rowsOf(csv: string, columns: readonly string[]): { line: number; values: Record<string, string> }[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(csv, { bom: true, skip_empty_lines: true, trim: true, info: true }) as unknown as typeof records;
  } catch (error) {
    throw new StatementUnreadable(`The file is not readable CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  const header = records[0]?.record ?? [];
  const missing = columns.filter((column) => !header.includes(column));
  if (missing.length > 0) throw new StatementUnreadable(`The header lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (expected ${columns.join(',')})`);
  // csv-parse itself refuses a record with more or fewer fields than the header.
  return records.slice(1).map(({ record, info }) => ({ line: info.lines, values: Object.fromEntries(header.map((name, i) => [name, record[i]])) }));
}

function sandboxLine(row: Record<string, string>, line: number): StatementLine {
  const at = `line ${line}`;
  const kinds: Record<string, MovementKind> = { payment: 'payment', refund: 'refund', transfer: 'transfer' };
  const statuses: Record<string, LineStatus> = { success: 'settled', failed: 'failed', pending: 'pending' };
  const kind = kinds[row.type];
  if (!kind) throw new StatementUnreadable(`${at}: type "${row.type}" is none of payment, refund, transfer`);
  const status = statuses[row.status];
  if (!status) throw new StatementUnreadable(`${at}: status "${row.status}" is none of success, failed, pending`);
  if (row.currency !== 'ETB') throw new StatementUnreadable(`${at}: currency "${row.currency}"; only ETB is reconciled`);
  if (!row.provider_reference) throw new StatementUnreadable(`${at}: provider_reference is empty`);
  return {
    line,
    kind,
    providerReference: row.provider_reference,
    ...(row.reference ? { reference: row.reference } : {}),
    amount: santimOf(row.amount, `${at}: amount`),
    fee: row.fee ? santimOf(row.fee, `${at}: fee`) : (0 as Santim),
    status,
    providerStatus: row.status,
    at: instantOf(row.time, `${at}: time`),
  };
}

/**
 * Chapa's words, as its pages use them: a charge is `success`, `failed`, `cancelled`, `expired` or
 * `pending` (https://developer.chapa.co/integrations/verify-payments), a refund `refunded` or
 * `success` (https://developer.chapa.co/refund), a transfer `success`, `failed` or `reverted`
 * (https://developer.chapa.co/transfer/verify-transfers). Any other word is read as pending: a line
 * we booked that Chapa calls something else is then a status mismatch, shown, never taken as settled.
 */
const CHAPA_STATUSES: Record<string, LineStatus> = {
  success: 'settled',
  successful: 'settled',
  refunded: 'settled',
  failed: 'failed',
  cancelled: 'failed',
  expired: 'failed',
  reverted: 'failed',
  reversed: 'failed',
};

function chapaLine(row: Record<string, string>, line: number): StatementLine {
  const at = `line ${line}`;
  const type = row.type.toLowerCase();
  // Chapa names a charge's type by how it was made (API, payment link, …); refunds and payouts by what they are.
  const kind: MovementKind = type === 'refund' ? 'refund' : type === 'payout' || type === 'transfer' ? 'transfer' : 'payment';
  const status = CHAPA_STATUSES[row.status.toLowerCase()] ?? 'pending';
  if (row.currency.toUpperCase() !== 'ETB') throw new StatementUnreadable(`${at}: currency "${row.currency}"; only ETB is reconciled`);
  if (!row.ref_id) throw new StatementUnreadable(`${at}: ref_id is empty`);
  const reference = kind === 'payment' ? row.tx_ref : row.reference;
  return {
    line,
    kind,
    providerReference: row.ref_id,
    ...(reference ? { reference } : {}),
    amount: santimOf(row.amount, `${at}: amount`),
    fee: row.charge ? santimOf(row.charge, `${at}: charge`) : (0 as Santim),
    status,
    providerStatus: row.status,
    at: instantOf(status === 'pending' ? row.created_at : row.updated_at || row.created_at, `${at}: ${status === 'pending' ? 'created_at' : 'updated_at'}`),
  };
}

/** A provider's statement file read into lines; throws StatementUnreadable naming the row and field at fault. */
export function parseStatement(provider: StatementProvider, csv: string): StatementLine[] {
  if (csv.trim() === '') throw new StatementUnreadable('The file is empty: a statement has at least its header');
  const [columns, line] = provider === 'sandbox' ? [SANDBOX_STATEMENT_COLUMNS, sandboxLine] : [CHAPA_STATEMENT_COLUMNS, chapaLine];
  return rowsOf(csv, columns).map((row) => line(row.values, row.line));
}

/**
 * The Africa/Addis_Ababa day a statement covers: the one named, which every line must fall on, or
 * else the one day its lines fall on. A file over several days, or an empty one with no day named,
 * cannot be reconciled against one day of our books.
 */
export function statementDayOf(lines: readonly StatementLine[], named?: string): string {
  if (named !== undefined) {
    addisDay(named);
    const stray = lines.find((line) => addisDayOf(new Date(line.at)) !== named);
    if (stray) throw new StatementUnreadable(`line ${stray.line} is of ${addisDayOf(new Date(stray.at))}, not of ${named}, the statement's day`);
    return named;
  }
  const days = [...new Set(lines.map((line) => addisDayOf(new Date(line.at))))].sort();
  if (days.length === 0) throw new StatementUnreadable('The statement has no lines, so it names no day: give the day it covers');
  if (days.length > 1) throw new StatementUnreadable(`The statement covers several days (${days.join(', ')}): reconcile one day at a time`);
  return days[0];
}
