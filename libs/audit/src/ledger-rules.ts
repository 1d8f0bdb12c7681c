import { type Mode, MODES, type Santim } from '@app/domain';

/**
 * A kind of account each owner has one of (`merchant:{id}:payable`, `escrow:{id}`): called with an
 * owner, its name; and the SQL a reader finds such accounts by, so that no reader spells the names out.
 */
export interface OwnedAccount {
  (ownerId: string): string;
  /** SQL: whether `column` names an account of this kind, of any owner. */
  matches(column: string): string;
  /** SQL: the name of this kind's account of the owner an SQL expression gives. */
  of(owner: string): string;
}

function owned(prefix: string, suffix = ''): OwnedAccount {
  return Object.assign((ownerId: string) => `${prefix}${ownerId}${suffix}`, {
    matches: (column: string) => `${column} LIKE '${prefix}%${suffix}'`,
    of: (owner: string) => `'${prefix}' || ${owner}${suffix ? ` || '${suffix}'` : ''}`,
  });
}

/**
 * An account of the books' own rather than one tenant's (the provider's money, refunds and payouts
 * under way), kept once per mode so that test and live money never meet (docs/concepts/modes.md):
 * live's keeps the name it had before modes, test's is that name after `test:`. Called with a mode,
 * its name in that mode.
 */
export type BooksAccount = (mode: Mode) => string;

function books(name: string): BooksAccount {
  return (mode) => (mode === 'live' ? name : `test:${name}`);
}

/** The accounts of docs/concepts/ledger.md: the one registry of their names. */
export const ACCOUNTS = {
  providerClearing: books('provider:clearing'),
  customerRefunds: books('customer:refunds'),
  escrow: owned('escrow:'),
  merchantPayable: owned('merchant:', ':payable'),
  /** What a marketplace earned in fees on the escrows it created. */
  merchantFees: owned('merchant:', ':fees'),
  /** Payouts sent and not yet confirmed by the provider: still owed to the merchants. */
  payoutsInTransit: books('payouts:in-transit'),
};

/** The books' own accounts; every other account is one tenant's (a merchant's, an escrow's), so of its tenant's mode. */
export const BOOKS_ACCOUNTS: readonly BooksAccount[] = [ACCOUNTS.providerClearing, ACCOUNTS.customerRefunds, ACCOUNTS.payoutsInTransit];

/** The mode a books account's name says; undefined for a tenant's account, whose mode is its tenant's. */
export function booksAccountMode(account: string): Mode | undefined {
  return MODES.find((mode) => BOOKS_ACCOUNTS.some((kind) => kind(mode) === account));
}

const quoted = (names: readonly string[]) => names.map((name) => `'${name}'`).join(', ');

/** The books' accounts in SQL. */
export const BOOKS_ACCOUNTS_SQL = {
  /** Whether `column` names one of the books' accounts of `mode`. */
  of: (mode: Mode, column: string) => `${column} IN (${quoted(BOOKS_ACCOUNTS.map((kind) => kind(mode)))})`,
};

/**
 * The accounts a merchant's money stands in, which its payouts take together: its payable, and its
 * fees (a platform's commission is paid out with the rest). Its balance's `available`, its statement,
 * its payout reports and its transfers' balance check read the same two.
 */
export const payoutAccounts = (merchantId: string): readonly [payable: string, fees: string] => [ACCOUNTS.merchantPayable(merchantId), ACCOUNTS.merchantFees(merchantId)];

/** The same two accounts in SQL: whether a column names either (of any owner), and the owner it names. */
export const PAYOUT_ACCOUNTS_SQL = {
  matches: (column: string) => `(${ACCOUNTS.merchantPayable.matches(column)} OR ${ACCOUNTS.merchantFees.matches(column)})`,
  ownerOf: (column: string) => `substring(${column} FROM '^merchant:(.*):(?:payable|fees)$')`,
};

/**
 * The money events that are a payout's own (one moving money out, its confirmation, a failed or
 * cancelled one's return): their entries are no earnings or spending of the merchant's, so statements of movements,
 * payout ranges and the holding period leave them out. journalFor below posts them.
 */
export const PAYOUT_ENTRY_TYPES = ['PayoutRequested', 'PayoutPaid', 'PayoutFailed', 'PayoutCanceled'] as const;

/** SQL: whether an entry's event type (a column) is one of a payout's own. */
export const isPayoutEntry = (eventType: string) => `${eventType} IN (${PAYOUT_ENTRY_TYPES.map((type) => `'${type}'`).join(', ')})`;

export interface JournalLine {
  account: string;
  debit: Santim | 0;
  credit: Santim | 0;
  /**
   * How the line reads on its own account's statement when the entry's description, written for
   * both sides, would not say which side it is (a transfer: "to" one, "from" the other).
   */
  memo?: string;
}

export interface JournalEntry {
  description: string;
  lines: JournalLine[];
}

/** Money the provider holds for us is an asset (debit-normal), in either mode; everything we owe is credit-normal. */
export function isDebitNormal(account: string): boolean {
  return MODES.some((mode) => ACCOUNTS.providerClearing(mode) === account);
}

const transfer = (description: string, debit: string, credit: string, amount: Santim): JournalEntry => ({
  description,
  lines: [
    { account: debit, debit: amount, credit: 0 },
    { account: credit, debit: 0, credit: amount },
  ],
});

/** Money from one merchant's payable (Dr) to another's (Cr), each line worded for its own statement. */
function between(description: string, from: { merchantId: string; memo: string }, to: { merchantId: string; memo: string }, amount: Santim): JournalEntry {
  return {
    description,
    lines: [
      { account: ACCOUNTS.merchantPayable(from.merchantId), debit: amount, credit: 0, memo: from.memo },
      { account: ACCOUNTS.merchantPayable(to.merchantId), debit: 0, credit: amount, memo: to.memo },
    ],
  };
}

export interface LedgerContext {
  /** Our order or escrow id, from the stream. */
  id: string;
  /**
   * The merchant that created the order or escrow: a plain order's payable account receives its payment
   * (and gives back its refunds); an escrow's creator earns the allocations' fees.
   */
  creatorMerchantId?: string;
  /** A plain order's fee (from its creation): its creator's fees account earns it when the order is paid. */
  orderFee?: Santim;
  /** The mode of the tenant the money is of: the books' accounts the entry posts to are that mode's. */
  mode: Mode;
}

/**
 * `amount` between one account and two: `fee` of it on the fees side, the rest on the payable
 * side. `out`: the money leaves the two (Dr) for `other` (Cr); otherwise it comes from `other` into them.
 */
function split(description: string, other: string, payable: string, fees: string, amount: Santim, fee: Santim | 0, out: boolean): JournalEntry {
  const line = (account: string, value: Santim | 0, debit: boolean): JournalLine =>
    debit ? { account, debit: value, credit: 0 } : { account, debit: 0, credit: value };
  const sides = [line(payable, (amount - fee) as Santim, out), line(fees, fee, out)];
  // Debits first, as in every entry.
  const lines = out ? [...sides, line(other, amount, false)] : [line(other, amount, true), ...sides];
  return { description, lines: lines.filter((l) => l.debit > 0 || l.credit > 0) };
}

/**
 * A payout's amount between the way out and the merchant's two accounts: `fees` of it (signed santim;
 * absent on payouts from before fees were paid out) from its fees, the rest from its payable. A payout
 * takes both balances whole, so one part may be below zero (the other account covered it): that part
 * posts on the other side. `out`: requested (Dr the accounts, Cr in transit); otherwise a failure giving
 * each part back to the account it came from.
 */
function payoutEntry(description: string, merchantId: string, amount: Santim, fees: number, out: boolean, mode: Mode): JournalEntry {
  const [payable, feesAccount] = payoutAccounts(merchantId);
  const line = (account: string, signed: number): JournalLine =>
    signed > 0 === out ? { account, debit: Math.abs(signed) as Santim, credit: 0 } : { account, debit: 0, credit: Math.abs(signed) as Santim };
  const lines = [line(payable, amount - fees), line(feesAccount, fees), line(ACCOUNTS.payoutsInTransit(mode), -amount)];
  // Debits first, as in every entry.
  return { description, lines: [...lines.filter((l) => l.debit > 0), ...lines.filter((l) => l.credit > 0)] };
}

/** The journal entry a money event calls for (double-entry, integer santim), or none. */
export function journalFor(type: string, data: Record<string, unknown>, context: LedgerContext): JournalEntry | undefined {
  const amount = data.amount as Santim;
  const { mode } = context;
  const clearing = ACCOUNTS.providerClearing(mode);
  const refunds = ACCOUNTS.customerRefunds(mode);
  const inTransit = ACCOUNTS.payoutsInTransit(mode);
  switch (type) {
    case 'OrderPaid': {
      const creator = context.creatorMerchantId ?? 'unknown';
      const fee = context.orderFee ?? 0;
      const description = fee === 0 ? 'Order paid' : `Order paid, fee to ${creator}`;
      return split(description, clearing, ACCOUNTS.merchantPayable(creator), ACCOUNTS.merchantFees(creator), amount, fee, false);
    }
    case 'EscrowFunded':
      return transfer('Escrow funded', clearing, ACCOUNTS.escrow(context.id), amount);
    case 'AllocationReleased': {
      const description = `Allocation of ${String(data.merchantId)} released`;
      const fee = (data.fee ?? 0) as Santim | 0;
      const creator = context.creatorMerchantId ?? 'unknown';
      // The creator's fee out of the gross released; the merchant gets the rest.
      return split(fee === 0 ? description : `${description}, fee to ${creator}`, ACCOUNTS.escrow(context.id), ACCOUNTS.merchantPayable(String(data.merchantId)), ACCOUNTS.merchantFees(creator), amount, fee, false);
    }
    case 'EscrowRefundRequested':
      // Money already released comes back from the allocation's merchant, and from the creator's fees
      // for the share of the fee it gives back; the merchant's payable may go below zero.
      if (data.reason === 'REVERSED') {
        const merchantId = String((data.merchantIds as string[])[0]);
        const creator = context.creatorMerchantId ?? 'unknown';
        const fee = (data.feeReturned ?? 0) as Santim | 0;
        return split(`Allocation of ${merchantId} reversed`, refunds, ACCOUNTS.merchantPayable(merchantId), ACCOUNTS.merchantFees(creator), amount, fee, true);
      }
      // The escrow's own money goes back on a cancellation or a refund the merchant asked for; a
      // refused payment never reached the escrow: what is owed back comes straight from clearing.
      return data.reason === 'CANCELLED' || data.reason === 'REQUESTED'
        ? transfer('Escrow refund requested', ACCOUNTS.escrow(context.id), refunds, amount)
        : transfer('Refused payment to refund', clearing, refunds, amount);
    // A payout leaves the merchant's payable and fees for the way out, and the provider's money once
    // confirmed; a failed one comes back to the accounts it left.
    case 'PayoutRequested':
      return payoutEntry('Payout requested', String(data.merchantId), amount, (data.fees ?? 0) as number, true, mode);
    case 'PayoutPaid':
      return transfer('Payout paid', inTransit, clearing, amount);
    case 'PayoutFailed':
      return payoutEntry('Payout failed, back to payable', String(data.merchantId), amount, (data.fees ?? 0) as number, false, mode);
    // Cancelled before it was sent: the request's entry reversed, each part back where it came from.
    case 'PayoutCanceled':
      return payoutEntry('Payout canceled, back to payable', String(data.merchantId), amount, (data.fees ?? 0) as number, false, mode);
    // Available money between two payables; a reversal gives back all or part of it the other way, and
    // may take the destination below zero.
    case 'TransferCreated': {
      const { transferId, source, destination, description } = data as { transferId: string; source: string; destination: string; description: string };
      return between(`Transfer ${transferId} from ${source} to ${destination}`, { merchantId: source, memo: `Transfer to ${destination}: ${description}` }, { merchantId: destination, memo: `Transfer from ${source}: ${description}` }, amount);
    }
    case 'TransferReversed': {
      const { transferId, source, destination } = data as { transferId: string; source: string; destination: string };
      return between(`Transfer ${transferId} reversed`, { merchantId: destination, memo: `Transfer from ${source} reversed` }, { merchantId: source, memo: `Transfer to ${destination} reversed` }, amount);
    }
    case 'OrderRefundRequested': {
      // A paid order's money went to its merchant (its fee to the fees account) and comes back from
      // there; a refused payment never did.
      if (data.reason !== 'REQUESTED') return transfer('Refused payment to refund', clearing, refunds, amount);
      const creator = context.creatorMerchantId ?? 'unknown';
      const fee = (data.fee ?? 0) as Santim | 0;
      return split('Order refund requested', refunds, ACCOUNTS.merchantPayable(creator), ACCOUNTS.merchantFees(creator), amount, fee, true);
    }
    default:
      return undefined;
  }
}

/** Refund completions carry no amount: it is the amount of the refund they complete. */
export function refundCompletionEntry(amount: Santim, mode: Mode): JournalEntry {
  return transfer('Refund paid out', ACCOUNTS.customerRefunds(mode), ACCOUNTS.providerClearing(mode), amount);
}
