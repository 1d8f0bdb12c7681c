import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ownedPayout } from '@app/contract';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { InvalidInput } from '@app/domain';
import { balanceTransactionsPage, payoutPaidAmounts } from '@app/read-models';
import { type BalanceTransactionAnswer, presentBalanceTransaction } from './balance-transaction.presenter';
import { ListBalanceTransactionsQuery } from './list-balance-transactions.query';

@QueryHandler(ListBalanceTransactionsQuery)
export class ListBalanceTransactionsHandler implements IQueryHandler<ListBalanceTransactionsQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ partyId, request }: ListBalanceTransactionsQuery): Promise<{ balanceTransactions: BalanceTransactionAnswer[]; hasMore: boolean }> {
    const { payoutId, ...filter } = request;
    // A payout of another merchant's is not found, as an unknown one; its lines are those its report says it paid, with what it paid of each.
    const paidBy = payoutId ? await payoutPaidAmounts(this.db, await ownedPayout(this.db, payoutId, partyId)) : undefined;
    const page = await balanceTransactionsPage(this.db, partyId, { ...filter, paidBy });
    if (!page) throw new InvalidInput('startingAfter must be the eventId of one of your balance transactions', 'UNKNOWN_CURSOR');
    return { balanceTransactions: page.transactions.map(presentBalanceTransaction), hasMore: page.hasMore };
  }
}
