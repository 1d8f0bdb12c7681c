import { Module } from '@nestjs/common';
import { GetBalanceHandler } from './get-balance.handler';
import { ListBalanceTransactionsHandler } from './list-balance-transactions/list-balance-transactions.handler';

/** A merchant's or an account's balance and its balance transactions, from the ledger and the escrows' allocations. */
@Module({ providers: [GetBalanceHandler, ListBalanceTransactionsHandler] })
export class BalancesFeatureModule {}
