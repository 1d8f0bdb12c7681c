import { addisDayOf, addisMidnight, DAY_MS } from '../shared/addis-ababa-time';

/** The longest holding period a merchant may set (payout settings' `payoutDelayDays`). */
export const MAX_PAYOUT_DELAY_DAYS = 30;

/**
 * The instant (ms) a credit to a payable becomes available for payout: the start, in Addis Ababa, of the
 * day `delayDays` after the day it was posted (`postedAt`); with no holding period, at once (the start of
 * its own day). `delayDays` is the holding period in force when the credit was posted (the settings'
 * last change before it in the log), so a later change never moves a credit's date and a rebuild of
 * the read models finds the same one.
 */
export function creditAvailableAt(postedAt: Date | number, delayDays: number): number {
  return addisMidnight(new Date(postedAt).getTime()) + delayDays * DAY_MS;
}

/** The Addis Ababa day (`YYYY-MM-DD`) a credit becomes available on (creditAvailableAt). */
export function creditAvailableOn(postedAt: Date | number, delayDays: number): string {
  return addisDayOf(creditAvailableAt(postedAt, delayDays));
}

/**
 * What a payable may pay out: its balance (every movement posted, each payout already taken out) less the
 * credits not yet available. A debit (a payout, a reversal, a transfer out) counts at once, so the result
 * may be below zero while money is on hold.
 */
export function availablePayableBalance(balance: number, notYetAvailable: number): number {
  return balance - notYetAvailable;
}

/** The longest rolling reserve a merchant may set (payout settings' `reserveDays`). */
export const MAX_RESERVE_DAYS = 90;

/** The most days a credit can be kept from payout, by the holding period or the reserve: readers look back this far and no further. */
export const MAX_CREDIT_KEPT_DAYS = Math.max(MAX_PAYOUT_DELAY_DAYS, MAX_RESERVE_DAYS);

/**
 * The rolling reserve's share of a credit, santim: `percent` (a whole number, 0 to 100) of `amount`,
 * rounded down to the santim, so a reserve never keeps more than its percentage of any credit.
 */
export function reservedShare(amount: number, percent: number): number {
  return amount > 0 ? Math.floor((amount * percent) / 100) : 0;
}

/** The rules in force when a credit was posted: its holding period and its rolling reserve. */
export interface CreditRules {
  delayDays: number;
  reservePercent: number;
  reserveDays: number;
}

/**
 * What of a credit of `amount` posted at `postedAt` is still kept from payout at `at`, santim. The
 * reserve (`reservePercent` of it, reservedShare) is kept until the start of the Addis Ababa day
 * `reserveDays` after its own, counted from the credit as the holding period is and independent of it;
 * the holding period keeps the rest (all of it once the reserve is over) until its own day. So the
 * credit is kept whole while held, then its reserve alone while reserved, then not at all.
 */
export function creditKeptAt(amount: number, postedAt: Date | number, at: number, rules: CreditRules): { held: number; reserved: number } {
  const reserved = at < creditAvailableAt(postedAt, rules.reserveDays) ? reservedShare(amount, rules.reservePercent) : 0;
  const held = at < creditAvailableAt(postedAt, rules.delayDays) ? amount - reserved : 0;
  return { held, reserved };
}
