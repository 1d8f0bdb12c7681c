import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { availablePayableBalance, MAX_CREDIT_KEPT_DAYS } from '@app/domain';
import { creditAvailableOn, creditKeptAt, heldAt } from '../ledger/credit-availability.sql';

/** An owner's money now, by where it stands, signed santim: the figures of its balance (balance.reader.ts) a list of accounts shows. */
export interface OwnerBalance {
  /** Its payable and fees together less what is on hold: what may be paid out now. */
  available: number;
  /** Its payable's credits the holding period still keeps. */
  onHold: number;
  /** Its payable's credits the rolling reserve still keeps (beyond the holding period). */
  reserve: number;
  /** Held for it in escrows: allocations paid, neither released nor refunded, not disputed. */
  pending: number;
  /** Its payable and fees together, money on hold included, are below zero: it owes (as the list's `balance=negative` filter reads it). */
  negative: boolean;
}

/**
 * Each owner's figures, one row per owner, in one statement: the two accounts' balances (ledger_balances,
 * one probe each), the credits still held or reserved at its own instant (`o.at`, $2 beside its id: the
 * same rule and bounded read as the balance's `onHold` and `reserve`: heldAt, creditKeptAt), and its
 * allocations holding money now (allocation_holdings' current rows).
 */
const BALANCES = `
  SELECT o.owner_id,
    (COALESCE((SELECT credit - debit FROM ledger_balances WHERE account = ${ACCOUNTS.merchantPayable.of('o.owner_id')}), 0)
      + COALESCE((SELECT credit - debit FROM ledger_balances WHERE account = ${ACCOUNTS.merchantFees.of('o.owner_id')}), 0))::text AS balance,
    k.held::text AS held, k.reserved::text AS reserved,
    (SELECT COALESCE(SUM(h.held), 0) FROM allocation_holdings h WHERE h.merchant_id = o.owner_id AND h.valid_to IS NULL)::text AS pending
  FROM unnest($1::text[], $2::timestamptz[]) AS o(owner_id, at)
  CROSS JOIN LATERAL (
    SELECT COALESCE(SUM(p_kept.held), 0) AS held, COALESCE(SUM(p_kept.reserved), 0) AS reserved
    FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
    ${creditAvailableOn('p', 'e', 'o.owner_id')}
    ${creditKeptAt('p', 'o.at')}
    WHERE ${heldAt('p', 'o.owner_id', ACCOUNTS.merchantPayable.of('o.owner_id'), 'o.at', '$3')}
  ) k`;

/**
 * The balances of the given owners (a page of accounts), by owner id: one query however many. `now`: the
 * instant all are read at, or each one's own (an account on a test clock: its clock's time, as its own
 * balance reads it).
 */
export async function ownerBalances(db: SqlExecutor, ownerIds: readonly string[], now: Date | ReadonlyMap<string, Date>): Promise<Map<string, OwnerBalance>> {
  if (ownerIds.length === 0) return new Map();
  const instants = ownerIds.map((id) => (now instanceof Date ? now : now.get(id)!));
  const rows = await db.query<{ owner_id: string; balance: string; held: string; reserved: string; pending: string }>(BALANCES, [[...ownerIds], instants, MAX_CREDIT_KEPT_DAYS + 1]);
  return new Map(
    rows.map((row) => {
      const balance = Number(row.balance);
      const [held, reserve] = [Number(row.held), Number(row.reserved)];
      return [row.owner_id, { available: availablePayableBalance(balance, held + reserve), onHold: held, reserve, pending: Number(row.pending), negative: balance < 0 }];
    }),
  );
}
