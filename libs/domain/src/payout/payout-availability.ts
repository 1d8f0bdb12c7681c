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
