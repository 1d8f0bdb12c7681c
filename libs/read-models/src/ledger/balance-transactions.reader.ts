import { ACCOUNTS, payoutAccounts } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { recoveredBy, streamKey, streamKind } from '@app/domain';
import { addisDay, creditAvailableOn } from './credit-availability.sql';
import { entryNames } from './entry-names.reader';

/**
 * What a line of a merchant's payable and fees is, by the money event that posted it and whether it
 * moved the payable (docs/guides/balances.md, "Balance transactions"): the one table of the types. An
 * allocation's release that credits only the fees account is its creator's fee; the reversal of one,
 * the fee given back.
 */
const TYPES = {
  payment: { eventType: 'OrderPaid' },
  refund: { eventType: 'OrderRefundRequested' },
  release: { eventType: 'AllocationReleased', payable: true },
  fee: { eventType: 'AllocationReleased', payable: false },
  reversal: { eventType: 'EscrowRefundRequested', payable: true },
  fee_reversal: { eventType: 'EscrowRefundRequested', payable: false },
  transfer: { eventType: 'TransferCreated' },
  transfer_reversal: { eventType: 'TransferReversed' },
  payout: { eventType: 'PayoutRequested' },
  payout_failure: { eventType: 'PayoutFailed' },
} as const satisfies Record<string, { eventType: string; payable?: boolean }>;

export type BalanceTransactionType = keyof typeof TYPES;
export const BALANCE_TRANSACTION_TYPES = Object.keys(TYPES) as BalanceTransactionType[];

/** The money events whose entries are lines of the given types (release and fee share theirs). */
export const eventTypesOf = (types: readonly BalanceTransactionType[]): string[] => [...new Set(types.map((type) => TYPES[type].eventType))];

/** SQL: what other merchants' fees accounts (not `ownFees`) took of the entry `entry`: a line's fee, so that its gross is its net plus this. */
export const otherFeesOf = (entry: string, ownFees: string) =>
  `(SELECT COALESCE(SUM(f.credit - f.debit), 0) FROM ledger_postings f WHERE f.entry_id = ${entry} AND ${ACCOUNTS.merchantFees.matches('f.account')} AND f.account <> ${ownFees})`;

/** SQL: a line's type, from its entry's event type and whether it moves the payable (SQL booleans). */
const typeOf = (eventType: string, movesPayable: string) =>
  `CASE ${Object.entries(TYPES)
    .map(([type, rule]) => `WHEN ${eventType} = '${rule.eventType}'${'payable' in rule ? ` AND ${rule.payable ? '' : 'NOT '}${movesPayable}` : ''} THEN '${type}'`)
    .join(' ')} END`;

/** One movement of a merchant's payable and fees, signed santim: in is positive. */
export interface BalanceTransaction {
  /** The event that posted it (the ledger entry's): a statement's and a payout report's lines carry the same. */
  eventId: string;
  type: BalanceTransactionType;
  /** The movement before another merchant's fee; `fee` that fee (a seller's release: the platform's commission); `net` what reached the payable and fees. gross − fee = net. */
  gross: number;
  fee: number;
  net: number;
  /** Of a credit that came while the payable and fees were below zero together: how much of it covered what was owed (0 otherwise). */
  recovered: number;
  /** A credit: the Addis Ababa day it becomes available for payout (the holding period in force when it was posted); null for a debit, which counts at once. */
  availableOn: string | null;
  /** What caused it: its stream's kind (`escrow`, `order`, `transfer`, `payout`) and id. */
  source: { type: string; id: string };
  description: string;
  counterparty: string | null;
  sourceDescription: string | null;
  /** The escrow and the payment order it belongs to: its source's own, or what its transfer named (entry-names.reader.ts); null when none. */
  escrowId: string | null;
  orderId: string | null;
  createdAt: Date;
  /** Listed for a payout (the filter's `paidBy`): what that payout paid of it, signed santim. */
  paid?: number;
}

export interface BalanceTransactionFilter {
  limit: number;
  /** The eventId of the last line of the page before. */
  startingAfter?: string;
  type?: BalanceTransactionType;
  /** Recorded at or after, and strictly before. */
  createdAfter?: Date;
  createdBefore?: Date;
  /** Only the lines a payout paid, by event id, each with what it paid of it (payoutPaidAmounts, from its report). */
  paidBy?: ReadonlyMap<string, number>;
}

/**
 * The lines of one of the two accounts ($1 the payable, $2 the fees) after the cursor ($4–$6) and in the
 * date range ($7, $8), newest first, read backwards along the (account, recorded_at, …) index from the
 * nearer of the two (bounds without NULL tests, so the index takes them), at most a page of them ($10): an
 * entry posts at most one line to each account and its lines share their instant and log position, so
 * the newest page of the two merged is in the two pages merged.
 */
const accountLines = (account: string) => `(
    SELECT p.entry_id, p.recorded_at, p.commit_position, p.prepare_position
    FROM ledger_postings p JOIN ledger_entries x ON x.entry_id = p.entry_id
    WHERE p.account = ${account}
      AND (p.recorded_at, p.commit_position, p.prepare_position) < (COALESCE($4::timestamptz, 'infinity'), COALESCE($5::numeric, 0), COALESCE($6::numeric, 0))
      AND p.recorded_at >= COALESCE($7::timestamptz, '-infinity') AND p.recorded_at < COALESCE($8::timestamptz, 'infinity')
      AND ($9::text IS NULL OR ${typeOf('x.event_type', `EXISTS (SELECT 1 FROM ledger_postings q WHERE q.entry_id = p.entry_id AND q.account = $1)`)} = $9::text)
      AND ($11::text[] IS NULL OR p.entry_id = ANY($11::text[]))
    ORDER BY p.recorded_at DESC, p.commit_position DESC, p.prepare_position DESC, p.line DESC
    LIMIT $10)`;

/** The balance of one account through an entry's instant and position (its running balance there). */
const balanceThrough = (account: string) => `COALESCE((
    SELECT r.running_balance FROM ledger_postings r
    WHERE r.account = ${account} AND (r.recorded_at, r.commit_position, r.prepare_position) <= (x.recorded_at, x.commit_position, x.prepare_position)
    ORDER BY r.recorded_at DESC, r.commit_position DESC, r.prepare_position DESC, r.line DESC LIMIT 1
  ), 0)`;

/**
 * Each line of the page: its net on the two accounts, the fee other merchants' fees accounts took of it
 * (as a payout report reads it: libs/read-models/src/payouts/payout-report.reader.ts), the day a payable credit
 * becomes available (creditAvailableOn; a fee alone is never held: its own day), and the two accounts'
 * balance right after it (their running balances), from which what it recovered follows.
 */
const PAGE = `
  SELECT x.event_id, x.event_type, x.stream_id, x.recorded_at, COALESCE(own.memo, x.description) AS description,
    ${typeOf('x.event_type', 'own.moves_payable')} AS type,
    own.net::text AS net,
    ${otherFeesOf('l.entry_id', '$2')}::text AS fee,
    CASE WHEN own.net > 0 THEN COALESCE(pc.available_on, ${addisDay('x.recorded_at')})::text END AS available_on,
    (${balanceThrough('$1')} + ${balanceThrough('$2')})::text AS balance_after
  FROM (
    SELECT entry_id, recorded_at, commit_position, prepare_position
    FROM (${accountLines('$1')} UNION ALL ${accountLines('$2')}) both_accounts
    GROUP BY entry_id, recorded_at, commit_position, prepare_position
    ORDER BY recorded_at DESC, commit_position DESC, prepare_position DESC
    LIMIT $10
  ) l
  JOIN ledger_entries x ON x.entry_id = l.entry_id
  CROSS JOIN LATERAL (
    SELECT SUM(o.credit - o.debit) AS net, MAX(o.memo) AS memo, bool_or(o.account = $1) AS moves_payable
    FROM ledger_postings o WHERE o.entry_id = l.entry_id AND o.account IN ($1, $2)
  ) own
  LEFT JOIN LATERAL (
    SELECT q_on.available_on FROM ledger_postings q ${creditAvailableOn('q', 'x', '$3')}
    WHERE q.entry_id = l.entry_id AND q.account = $1 AND q.credit > q.debit
  ) pc ON true
  ORDER BY l.recorded_at DESC, l.commit_position DESC, l.prepare_position DESC`;

/** Where a line stands, if it is one of the merchant's: the cursor a page continues after. */
const CURSOR = `
  SELECT e.recorded_at, e.commit_position::text AS commit, e.prepare_position::text AS prepare FROM ledger_entries e
  WHERE e.entry_id = $1 AND EXISTS (SELECT 1 FROM ledger_postings p WHERE p.entry_id = $1 AND p.account IN ($2, $3))`;

type Row = { event_id: string; event_type: string; stream_id: string; recorded_at: Date; description: string; type: BalanceTransactionType; net: string; fee: string; available_on: string | null; balance_after: string };

/**
 * A page of the merchant's balance transactions, newest first (by when each was recorded, then its place
 * in the log: the order its running balances follow), from the ledger read model: every movement of its
 * payable and fees (payoutAccounts), one line per ledger entry however many of the two it moves. Each
 * page reads a page of each account's index after the cursor, so the thousandth page costs what the
 * first does. Undefined when `startingAfter` is not one of its lines.
 */
export async function balanceTransactionsPage(
  db: SqlExecutor,
  merchantId: string,
  filter: BalanceTransactionFilter,
): Promise<{ transactions: BalanceTransaction[]; hasMore: boolean } | undefined> {
  const [payable, fees] = payoutAccounts(merchantId);
  let cursor: { recorded_at: Date; commit: string; prepare: string } | undefined;
  if (filter.startingAfter !== undefined) {
    [cursor] = await db.query<{ recorded_at: Date; commit: string; prepare: string }>(CURSOR, [filter.startingAfter, payable, fees]);
    if (!cursor) return undefined;
  }
  const rows = await db.query<Row>(PAGE, [
    payable,
    fees,
    merchantId,
    cursor?.recorded_at ?? null,
    cursor?.commit ?? null,
    cursor?.prepare ?? null,
    filter.createdAfter ?? null,
    filter.createdBefore ?? null,
    filter.type ?? null,
    filter.limit + 1,
    filter.paidBy ? [...filter.paidBy.keys()] : null,
  ]);
  const page = rows.slice(0, filter.limit);
  const lines = page.map((row) => ({ eventId: row.event_id, source: streamKey(row.stream_id) }));
  const names = await entryNames(db, merchantId, lines);
  const transactions = page.map((row, i): BalanceTransaction => {
    const net = Number(row.net);
    const fee = Number(row.fee);
    return {
      eventId: row.event_id,
      type: row.type,
      gross: net + fee,
      fee,
      net,
      recovered: recoveredBy(Number(row.balance_after) - net, net),
      availableOn: row.available_on,
      source: { type: streamKind(row.stream_id)!, id: lines[i].source },
      description: row.description,
      counterparty: names.get(row.event_id)?.counterparty ?? null,
      sourceDescription: names.get(row.event_id)?.sourceDescription ?? null,
      escrowId: names.get(row.event_id)?.escrowId ?? null,
      orderId: names.get(row.event_id)?.orderId ?? null,
      createdAt: new Date(row.recorded_at),
      ...(filter.paidBy ? { paid: filter.paidBy.get(row.event_id) ?? 0 } : {}),
    };
  });
  return { transactions, hasMore: rows.length > filter.limit };
}
