import type { AccountStatus, AccountType } from './account.events';
import { accountRequirements, type DestinationOnFile, holdsPayouts } from './account-requirements';
import { pastDueReason, pastDueRequirements, type RequirementDue } from './account-documents';

export type PayoutBlock = 'ACCOUNT_NOT_VERIFIED' | 'REQUIREMENTS_MISSING' | 'DESTINATION_CHANGE_HOLD';

/** Not payable, and why: ACCOUNT_NOT_VERIFIED names the status it is in instead (and its staff's reason, when they gave one). */
export type PayoutStanding =
  | { payable: true }
  | { payable: false; reason: PayoutBlock; missing?: string[]; heldUntil?: string; status?: Exclude<AccountStatus, 'VERIFIED'>; statusReason?: string };

export interface StandingAccount {
  status: AccountStatus;
  statusReason?: string;
  type: AccountType;
  name: string;
  tin?: string;
  tradeLicenceNumber?: string;
  requirementsDue?: RequirementDue[];
}

/** Until when a destination's setting holds payouts (ms since the epoch); undefined when it holds none. */
export function destinationHeldUntil(destination: DestinationOnFile | undefined, holdMs: number): number | undefined {
  return destination && holdsPayouts(destination) ? Date.parse(destination.setAt) + holdMs : undefined;
}

/**
 * May this account be paid out now: verified, no requirement of its staff past due, nothing missing,
 * and its destination not changed within the hold (PAYOUT_HOLD_AFTER_DESTINATION_CHANGE_HOURS), the
 * guard against a taken-over seller login redirecting its money. Only a change that replaced a payable
 * destination holds (`replacingHolds`).
 */
export function payoutStanding(account: StandingAccount, destination: DestinationOnFile | undefined, now: Date, holdMs: number): PayoutStanding {
  if (account.status !== 'VERIFIED') {
    return { payable: false, reason: 'ACCOUNT_NOT_VERIFIED', status: account.status, ...(account.statusReason ? { statusReason: account.statusReason } : {}) };
  }
  // A requirement past its due instant restricts the account's payouts as a restriction does, read at the instant the payout is decided.
  const pastDue = pastDueRequirements(account, now);
  if (pastDue.length > 0) return { payable: false, reason: 'ACCOUNT_NOT_VERIFIED', status: 'RESTRICTED', statusReason: pastDueReason(pastDue) };
  const missing = accountRequirements(account, destination);
  if (missing.length > 0) return { payable: false, reason: 'REQUIREMENTS_MISSING', missing };
  const heldUntil = destinationHeldUntil(destination, holdMs);
  if (heldUntil !== undefined && now.getTime() < heldUntil) return { payable: false, reason: 'DESTINATION_CHANGE_HOLD', heldUntil: new Date(heldUntil).toISOString() };
  return { payable: true };
}

/**
 * Whether replacing the destination on file holds the account's payouts. The hold guards money that
 * could be paid out against a taken-over login re-pointing it, so it applies when what is replaced is
 * payable but for a hold (the account verified, nothing missing, the holder its legal name), or is
 * still held itself (else a second change would end the first one's hold). A first destination, or
 * one that was not payable (a typo in the holder's name, an account not yet verified), holds nothing:
 * no payout could have gone to it.
 */
export function replacingHolds(account: StandingAccount, replaced: DestinationOnFile | undefined, now: Date, holdMs: number): boolean {
  if (!replaced) return false;
  const standing = payoutStanding(account, replaced, now, holdMs);
  return standing.payable || standing.reason === 'DESTINATION_CHANGE_HOLD' || now.getTime() < (destinationHeldUntil(replaced, holdMs) ?? 0);
}
