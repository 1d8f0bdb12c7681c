import { ACCOUNTS, csvRow } from '@app/audit';
import { streamKey } from '@app/read-models';
import type { SqlExecutor } from '@app/database';
import { signedBirr } from './signed-birr';
import type { StatementPeriod } from './statement-period';

/** One movement of the merchant's payable account, signed santim (in: positive). */
export interface StatementMovement {
  eventId: string;
  type: string;
  /** The stream it came from: an order or escrow (`ord_…`, `esc_…`), or the merchant's payouts. */
  source: string;
  description: string;
  recordedAt: string;
  amount: number;
}

export interface Statement {
  from: string;
  to: string;
  /** Santim, all signed: what the payable held at `from`, what moved in [from, to), what it held at `to`. */
  opening: number;
  movements: StatementMovement[];
  closing: number;
}

/**
 * A period of the payable account: the opening balance is every movement before `from`, the closing
 * one the opening plus the movements of the period, so the two always reconcile (the movements are
 * the ledger's postings, in log order, each with the event that caused it).
 */
export function statementOf(all: readonly StatementMovement[], from: string, to: string): Statement {
  const start = Date.parse(from);
  const end = Date.parse(to);
  let opening = 0;
  const movements: StatementMovement[] = [];
  for (const movement of all) {
    const at = Date.parse(movement.recordedAt);
    if (at < start) opening += movement.amount;
    else if (at < end) movements.push(movement);
  }
  return { from, to, opening, movements, closing: movements.reduce((total, m) => total + m.amount, opening) };
}

/** A movement with the balance the payable held right after it. */
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

/** The statement as the API's statement.csv and the consoles' downloads give it, byte for byte: an opening line, one per movement, a closing line. */
export function statementCsv(statement: Statement): string {
  return [
    csvRow(['recorded_at', 'event_id', 'type', 'source', 'description', 'amount', 'balance']),
    csvRow([statement.from, '', 'OPENING', '', 'Opening balance', '', signedBirr(statement.opening)]),
    ...runningBalances(statement).map((m) => csvRow([m.recordedAt, m.eventId, m.type, m.source, m.description, signedBirr(m.amount), signedBirr(m.balance)])),
    csvRow([statement.to, '', 'CLOSING', '', 'Closing balance', '', signedBirr(statement.closing)]),
  ].join('');
}

const MOVEMENTS = `
  SELECT e.event_id, e.event_type, e.stream_id, e.recorded_at, e.description, (p.credit - p.debit)::bigint AS amount
  FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
  WHERE p.account = $1 AND p.recorded_at < $2
  ORDER BY p.commit_position, p.prepare_position, p.line`;

/** Every movement of the merchant's payable up to `to`, read from the ledger. */
async function payableMovements(db: SqlExecutor, merchantId: string, to: string): Promise<StatementMovement[]> {
  const rows = await db.query<{ event_id: string; event_type: string; stream_id: string; recorded_at: Date; description: string; amount: string }>(MOVEMENTS, [
    ACCOUNTS.merchantPayable(merchantId),
    new Date(to),
  ]);
  return rows.map((row) => ({
    eventId: row.event_id,
    type: row.event_type,
    source: streamKey(row.stream_id),
    description: row.description,
    recordedAt: new Date(row.recorded_at).toISOString(),
    amount: Number(row.amount),
  }));
}

/** The merchant's statement over the period, read from the ledger: what the API, the dashboard and the audit console all show. */
export async function readStatement(db: SqlExecutor, merchantId: string, period: StatementPeriod): Promise<Statement> {
  return statementOf(await payableMovements(db, merchantId, period.to), period.from, period.to);
}
