import { type Account, accountRequirements, type DestinationOnFile, pastDueRequirements, payoutStanding } from '@app/domain';
import type { AccountResponse } from './account.response';

/** What the operator's staff asked for, each saying whether it is past due (which restricts the account's payouts). */
function requirementsDue(account: Account, now: Date) {
  const pastDue = new Set(pastDueRequirements(account, now).map((r) => r.kind));
  return (account.requirementsDue ?? []).map(({ kind, dueBy }) => ({ kind, dueBy, pastDue: pastDue.has(kind) }));
}

/** An account with what it still lacks and, after a change of destination, until when its payouts wait. */
export function presentAccount(account: Account, destination: DestinationOnFile | undefined, holdMs: number, now: Date): AccountResponse {
  const standing = payoutStanding(account, destination, now, holdMs);
  return {
    accountId: account.accountId,
    reference: account.reference ?? null,
    type: account.type,
    name: account.name,
    email: account.email ?? null,
    phone: account.phone ?? null,
    tin: account.tin ?? null,
    tradeLicenceNumber: account.tradeLicenceNumber ?? null,
    callbackURL: account.callbackUrl ?? null,
    metadata: account.metadata ?? null,
    status: account.status,
    statusReason: account.statusReason ?? null,
    // A closed account is paid nothing more: nothing it lacks matters.
    requirements: account.status === 'CLOSED' ? [] : accountRequirements(account, destination),
    requirementsDue: requirementsDue(account, now),
    payoutsHeldUntil: (!standing.payable && standing.heldUntil) || null,
    testClockId: account.testClockId ?? null,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
  };
}
