import { type Santim, santim } from '../shared/money';
import type { PayoutStanding } from '../account/account-payability';
import {
  AccountNotVerified,
  NothingToPayOut,
  PayoutAmountBelowMinimum,
  PayoutAmountExceedsAvailable,
  PayoutBelowMinimum,
  PayoutDestinationMissing,
  PayoutDestinationOnHold,
  PayoutRequirementsMissing,
  PayoutsPaused,
} from './payout.errors';
import { availablePayableBalance } from './payout-availability';
import { payablePeriod } from './payout-schedule';
import { type SettingsInForce, settingsOrDefault } from './payout-settings.decider';
import type { DestinationInForce } from './payout-destination.decider';
import type { PayoutEvent } from './payout.events';

export type PayoutRequested = Extract<PayoutEvent, { type: 'PayoutRequested' }>;

/**
 * A payout asked for: on demand (of everything available, or of a chosen `amount` of it), or by the
 * schedule for a period (its id then derives from it: scheduledPayoutId).
 */
export type PayoutAsk = { merchantId: string; payoutId: string; at: string } & ({ trigger: 'on-demand'; amount?: Santim } | { trigger: 'schedule'; period: string });

/**
 * What a payout request is decided on, read at one point of the merchant's books: whether a payout of
 * this id exists already, the settings and destination in force, and the payable's balance with the
 * ledger position it was read at (`through`), which includes every earlier payout and every failed
 * one's return (the caller waited for the ledger to reach the log's head after reading the books).
 */
export interface PayoutBasis {
  exists: boolean;
  settings?: SettingsInForce;
  destination?: DestinationInForce;
  /** The balance of the accounts a payout takes (payable and fees) at `through`, santim: what no payout in flight or paid holds. */
  balance: number;
  /**
   * The part of `balance` in the fees account (signed santim): the payout's `fees`, always whole, for fees
   * are never held; the rest of the payout (amount less fees) is the payable's.
   */
  fees: number;
  /**
   * Of the payable's credits in `balance`, what is not yet available at the ask's instant (the holding
   * period, payout-availability.ts), santim: the payout leaves it in the payable, and a later payout takes
   * it once available (its balance still holds it, and nothing subtracts it any more). Absent: nothing held.
   */
  notYetAvailable?: number;
  /** The previous payout's `through` (where this one's range begins); null for the merchant's first payout of its own stream. */
  after: string | null;
  through: string;
  /** A platform's seller account: whether it may be paid out now (account-payability.ts); absent for any other merchant, which always may. */
  standing?: PayoutStanding;
}

/**
 * The parts of a chosen amount (at most what is available, the payable's available part and the fees
 * together): the fees' balance first, for fees are never held, up to the amount; a fees balance at or
 * below zero is settled whole, as a payout of everything does. Neither part then exceeds its account's
 * available money, and what is left stays in each for a later payout.
 */
function chosenParts(amount: Santim, fees: number): { amount: number; fees: number } {
  return { amount, fees: fees > 0 ? Math.min(fees, amount) : fees };
}

function notPayable(merchantId: string, standing: Extract<PayoutStanding, { payable: false }>): Error {
  switch (standing.reason) {
    case 'ACCOUNT_NOT_VERIFIED':
      return new AccountNotVerified(merchantId, standing.status ?? 'PENDING_VERIFICATION', standing.statusReason);
    case 'REQUIREMENTS_MISSING':
      return new PayoutRequirementsMissing(merchantId, standing.missing ?? []);
    case 'DESTINATION_CHANGE_HOLD':
      return new PayoutDestinationOnHold(merchantId, standing.heldUntil!);
  }
}

/**
 * A payout of the payable's available balance and the fees' balance (or of a chosen amount of them,
 * the rest left where it is), never of a movement another payout
 * holds: the balance already has every earlier payout moved out (Dr payable and fees, Cr in transit) and every
 * failed one back, and the
 * merchant's books serialize the decisions. Undefined: nothing to do (the same request again, whose
 * payout stands; a scheduled period that pays nothing, the money waiting); a refusal is thrown for
 * one asked for on demand.
 */
export function decidePayoutRequest(ask: PayoutAsk, basis: PayoutBasis): PayoutRequested | undefined {
  if (basis.exists) return undefined;
  const settings = settingsOrDefault(basis.settings);
  const scheduled = ask.trigger === 'schedule' ? ask.period : undefined;
  // Paused (a platform's review of its seller, say): a scheduled period pays nothing and its money waits; one asked for is refused.
  const paused = basis.settings?.paused;
  if (paused) {
    if (scheduled !== undefined) return undefined;
    throw new PayoutsPaused(ask.merchantId, paused.reason);
  }
  // A job of a period that is not the schedule's payable one (it ran late, the schedule changed since it
  // was queued, or the period fell due before the schedule was set) pays nothing: the money waits for
  // the period that is, and a period's job pays what is there once.
  if (scheduled !== undefined && payablePeriod(settings.schedule, basis.settings?.scheduleSetAt ?? 0, Date.parse(ask.at))?.key !== scheduled) return undefined;
  // After a failure the destination waits for the merchant (told by PAYOUT_FAILED); one asked for on demand is their own decision.
  if (scheduled !== undefined && basis.destination?.paused) return undefined;
  // An account not verified (or lacking what a payout needs, or just after its destination changed) is
  // paid nothing; on schedule its money waits for a later period, asked for it is refused.
  if (basis.standing && !basis.standing.payable) {
    if (scheduled !== undefined) return undefined;
    throw notPayable(ask.merchantId, basis.standing);
  }
  const { destination } = basis;
  const balance = availablePayableBalance(basis.balance, basis.notYetAvailable ?? 0);
  const refusal = !destination
    ? new PayoutDestinationMissing()
    : balance <= 0
      ? new NothingToPayOut(basis.balance)
      : balance < settings.minimumAmount
        ? new PayoutBelowMinimum(santim(balance), settings.minimumAmount)
        : undefined;
  if (refusal) {
    // Nobody asked for a scheduled payout: with nothing (or too little) to pay, its period pays nothing and the money waits.
    if (scheduled !== undefined) return undefined;
    throw refusal;
  }
  const chosen = ask.trigger === 'on-demand' ? ask.amount : undefined;
  if (chosen !== undefined && chosen > balance) throw new PayoutAmountExceedsAvailable(chosen, santim(balance));
  if (chosen !== undefined && chosen < settings.minimumAmount) throw new PayoutAmountBelowMinimum(chosen, settings.minimumAmount);
  const { amount, fees } = chosen === undefined ? { amount: balance, fees: basis.fees } : chosenParts(chosen, basis.fees);
  return {
    type: 'PayoutRequested',
    data: {
      merchantId: ask.merchantId,
      payoutId: ask.payoutId,
      amount: santim(amount),
      ...(fees !== 0 && { fees }),
      destinationVersion: destination!.version,
      destination: destination!.destination,
      after: basis.after,
      through: basis.through,
      trigger: ask.trigger,
      ...(scheduled !== undefined && { period: scheduled }),
      requestedAt: ask.at,
    },
  };
}
