import { formatEtb, type Santim } from '../shared/money';
import { DomainError } from '../shared/domain-error';

/**
 * What an account still holds, signed santim: its available balance (below zero when it owes), what the
 * holding period keeps, its payouts on their way, and the escrows in which it has an allocation not yet
 * settled (unpaid, held or frozen). An account is closed only when all are nothing: its money is paid out
 * or transferred first, so that closing it neither strands money nor forgives a debt.
 */
export interface AccountHoldings {
  available: number;
  onHold: number;
  inTransit: number;
  openAllocations: number;
}

/** What of the holdings is not nothing, in words; empty when the account may be closed. */
export function unsettledHoldings(holdings: AccountHoldings): string[] {
  const birr = (value: number) => (value < 0 ? `-${formatEtb(-value as Santim)}` : formatEtb(value as Santim));
  return [
    ...(holdings.available !== 0 ? [`${birr(holdings.available)} ETB available`] : []),
    ...(holdings.onHold !== 0 ? [`${birr(holdings.onHold)} ETB on hold`] : []),
    ...(holdings.inTransit !== 0 ? [`${birr(holdings.inTransit)} ETB in transit`] : []),
    ...(holdings.openAllocations !== 0 ? [`${holdings.openAllocations} open allocation${holdings.openAllocations === 1 ? '' : 's'}`] : []),
  ];
}

/** A closing while the account still holds money or open allocations. */
export class AccountNotSettled extends DomainError {
  constructor(accountId: string, unsettled: readonly string[]) {
    super(
      'ACCOUNT_NOT_SETTLED',
      `Account ${accountId} still has ${unsettled.join(', ')}: pay its balance out or transfer it, and let its allocations settle, before closing it`,
      'conflict',
    );
  }
}

/** A change asked of a closed account: closing is the end state, the account takes nothing more. */
export class AccountIsClosed extends DomainError {
  constructor(accountId: string) {
    super('ACCOUNT_CLOSED', `Account ${accountId} is closed: it takes no more changes, documents or requests`, 'conflict');
  }
}
