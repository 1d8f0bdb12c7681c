import { Query } from '@nestjs/cqrs';
import type { AccountResponse } from '@app/contract';
import type { AccountStatus } from '@app/domain';

/** An account as GET /v1/trdp/accounts answers it: its answer and its money, signed ETB, on its own clock. */
export interface AccountWithBalance extends AccountResponse {
  balance: { available: number; onHold: number; reserve: number; pending: number; negative: boolean };
  /** With `negativeOnly`: what it owes and since when. */
  negativeBalance?: { available: number; negativeSince: string };
}

/** A page of a platform's accounts, newest first, each with its balance; a cursor that is none of them is UNKNOWN_CURSOR. */
export class ListAccountsQuery extends Query<{ accounts: AccountWithBalance[]; hasMore: boolean }> {
  constructor(
    readonly merchantId: string,
    readonly filter: { limit: number; startingAfter?: string; status?: AccountStatus; negativeOnly: boolean },
  ) {
    super();
  }
}

/** One of a platform's accounts with its balance; another's, or an unknown one, is not found. */
export class GetAccountQuery extends Query<AccountWithBalance> {
  constructor(
    readonly merchantId: string,
    readonly accountId: string,
  ) {
    super();
  }
}
