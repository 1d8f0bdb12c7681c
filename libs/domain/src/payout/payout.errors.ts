import type { AccountStatus } from '../account/account.events';
import { DomainError, InvalidInput } from '../shared/domain-error';
import { formatEtb, type Santim } from '../shared/money';

/** A payout before a payout destination was set. */
export class PayoutDestinationMissing extends DomainError {
  constructor() {
    super('PAYOUT_DESTINATION_MISSING', 'Register a payout destination first (POST /v1/trdp/payout-destination)', 'conflict');
  }
}

/** Why nothing is available: a balance below zero owes money first; otherwise it is all paid out, on its way or on hold. */
function nothingAvailableBecause(balance: number): string {
  if (balance < 0) {
    return `the balance is -${formatEtb(-balance as Santim)} ETB, below zero (a reversal or a transfer took more than it held), and the next credits cover that first`;
  }
  return 'every released birr is paid out, on its way, or not yet available (the holding period or the rolling reserve of the payout settings)';
}

/**
 * A payout when nothing is available: everything released is paid out, on its way or still on hold,
 * or the balance is below zero, which the message says with the amount owed.
 */
export class NothingToPayOut extends DomainError {
  /** `balance`: the payable's and fees' balance in santim, every payout already taken out. */
  constructor(balance: number) {
    super('NOTHING_TO_PAY_OUT', `Nothing is available to pay out: ${nothingAvailableBecause(balance)}`, 'conflict');
  }
}

/** A payout of less than the `minimumAmount` of the payout settings, asked for (a scheduled one pays nothing instead). */
export class PayoutBelowMinimum extends DomainError {
  constructor(available: Santim, minimum: Santim) {
    super('PAYOUT_BELOW_MINIMUM', `${formatEtb(available)} ETB is available, below the minimum payout of ${formatEtb(minimum)} ETB`, 'conflict');
  }
}

/** A holding period (`payoutDelayDays`) that is not a whole number of days from 0 to MAX_PAYOUT_DELAY_DAYS. */
export class PayoutDelayOutOfRange extends DomainError {
  constructor(days: number, max: number) {
    super('PAYOUT_DELAY_OUT_OF_RANGE', `payoutDelayDays must be a whole number of days from 0 to ${max}, not ${days}`, 'invalid');
  }
}

/** A rolling reserve's `reservePercent` that is not a whole number from 0 to 100. */
export class ReservePercentOutOfRange extends DomainError {
  constructor(percent: number) {
    super('RESERVE_PERCENT_OUT_OF_RANGE', `reservePercent must be a whole number from 0 to 100, not ${percent}`, 'invalid');
  }
}

/**
 * A rolling reserve's `reserveDays` that is not a whole number of days from 0 to MAX_RESERVE_DAYS, or 0
 * while `reservePercent` keeps a share: a reserve held for no day would keep nothing, which is not what
 * a platform that named a percentage meant.
 */
export class ReserveDaysOutOfRange extends DomainError {
  constructor(days: number, max: number, percent: number) {
    const range = percent > 0 ? `from 1 to ${max} while reservePercent is ${percent}` : `from 0 to ${max}`;
    super('RESERVE_DAYS_OUT_OF_RANGE', `reserveDays must be a whole number of days ${range}, not ${days}`, 'invalid');
  }
}

export class PayoutNotFound extends DomainError {
  constructor(payoutId: string) {
    super('ABC_001', `Payout ${payoutId} was not found`, 'not_found');
  }
}

/** The ledger had not yet posted the merchant's earlier payouts when a payout was decided: its balance would not be what is free to pay. */
export class PayoutLedgerBehind extends DomainError {
  constructor() {
    super('PAYOUT_LEDGER_BEHIND', 'The ledger is still posting earlier payouts; retry the payout in a moment', 'conflict');
  }
}

/** What an account's status says of its payouts, in words: what it is, and what follows. */
const UNPAYABLE: Readonly<Record<Exclude<AccountStatus, 'VERIFIED'>, [string, string]>> = {
  PENDING_VERIFICATION: ['is not verified yet', 'nothing is paid out to it until it is'],
  RESTRICTED: ['is restricted', 'nothing is paid out to it until it is reviewed again'],
  REJECTED: ['was rejected', 'nothing is paid out to it'],
  CLOSED: ['is closed', 'nothing is paid out to it'],
};

/**
 * A payout asked for a platform's seller account that is not VERIFIED (a scheduled one pays nothing
 * instead: the money waits). One code for every such status, which integrations already handle; the
 * message names the status (not verified yet, restricted, rejected) and why, where its staff said.
 */
export class AccountNotVerified extends DomainError {
  constructor(accountId: string, status: Exclude<AccountStatus, 'VERIFIED'>, why?: string) {
    const [is, so] = UNPAYABLE[status];
    super('ACCOUNT_NOT_VERIFIED', `Account ${accountId} ${is}${why ? ` (${why})` : ''}: ${so} (GET /v1/trdp/accounts/${accountId} shows its status)`, 'conflict');
  }
}

/** A payout asked for a verified account that still lacks what a payout needs (its legal details, a destination in its own name). */
export class PayoutRequirementsMissing extends DomainError {
  constructor(accountId: string, missing: readonly string[]) {
    super('PAYOUT_REQUIREMENTS_MISSING', `Account ${accountId} cannot be paid out until it has: ${missing.join(', ')}`, 'conflict');
  }
}

/** A payout asked for an account whose destination changed within the hold after a change (PAYOUT_HOLD_AFTER_DESTINATION_CHANGE_HOURS). */
export class PayoutDestinationOnHold extends DomainError {
  constructor(accountId: string, heldUntil: string) {
    super('PAYOUT_DESTINATION_ON_HOLD', `The payout destination of account ${accountId} changed recently: payouts to it wait until ${heldUntil}`, 'conflict');
  }
}

/** A payout's `amount` that is no ETB amount above zero with at most two decimals (zero, negative, not a number). */
export class PayoutAmountInvalid extends InvalidInput {
  constructor(detail: string) {
    super(`amount must be an ETB amount above zero with at most 2 decimal places (${detail}); leave it out to pay out everything available`, 'PAYOUT_AMOUNT_INVALID');
  }
}

/** A payout's chosen `amount` above what is available now (the balance less what payouts already took and the holding period and the reserve keep). */
export class PayoutAmountExceedsAvailable extends DomainError {
  constructor(asked: Santim, available: Santim) {
    super('PAYOUT_AMOUNT_EXCEEDS_AVAILABLE', `${formatEtb(available)} ETB is available to pay out; a payout of ${formatEtb(asked)} ETB cannot be made`, 'conflict');
  }
}

/** A payout's chosen `amount` below the `minimumAmount` of the payout settings (while more than the minimum is available). */
export class PayoutAmountBelowMinimum extends DomainError {
  constructor(asked: Santim, minimum: Santim) {
    super('PAYOUT_AMOUNT_BELOW_MINIMUM', `A payout of ${formatEtb(asked)} ETB is below the minimum payout of ${formatEtb(minimum)} ETB`, 'conflict');
  }
}

/** A payout asked for while the merchant's payouts are paused (POST /v1/trdp/payouts/pause); a scheduled one pays nothing instead. */
export class PayoutsPaused extends DomainError {
  constructor(merchantId: string, reason: string) {
    super('PAYOUTS_PAUSED', `Payouts of ${merchantId} are paused (${reason}): nothing is paid out until they are resumed (POST /v1/trdp/payouts/resume)`, 'conflict');
  }
}

/** A cancellation of a payout already sent to the provider (or paid, failed): only a payout still REQUESTED can be cancelled. */
export class PayoutNotCancelable extends DomainError {
  constructor(payoutId: string, status: string) {
    super('PAYOUT_NOT_CANCELABLE', `Payout ${payoutId} is ${status}: only a payout not yet sent to the provider (REQUESTED) can be cancelled`, 'conflict');
  }
}
