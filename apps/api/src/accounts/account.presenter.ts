import { type Account, accountRequirements, type DestinationOnFile, payoutStanding } from '@app/domain';
import type { AccountResponse } from './account.response';

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
    requirements: accountRequirements(account, destination),
    payoutsHeldUntil: (!standing.payable && standing.heldUntil) || null,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
  };
}
