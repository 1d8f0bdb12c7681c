import { Query } from '@nestjs/cqrs';
import type { BalanceTransactionType } from '@app/read-models';
import type { BalanceTransactionAnswer } from './balance-transaction.presenter';

/** What a page of balance transactions is asked for: the filters of GET /v1/trdp/balance-transactions, checked. */
export interface BalanceTransactionsRequest {
  limit: number;
  startingAfter?: string;
  type?: BalanceTransactionType;
  createdAfter?: Date;
  createdBefore?: Date;
  /** Only what this payout (`po_…`, the party's own) paid. */
  payoutId?: string;
}

/**
 * A page of the party's balance transactions (the merchant's, or the account it acts for), newest first:
 * a cursor that is none of its lines is UNKNOWN_CURSOR, another merchant's payout is not found.
 */
export class ListBalanceTransactionsQuery extends Query<{ balanceTransactions: BalanceTransactionAnswer[]; hasMore: boolean }> {
  constructor(
    readonly partyId: string,
    readonly request: BalanceTransactionsRequest,
  ) {
    super();
  }
}
