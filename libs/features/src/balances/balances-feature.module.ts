import { Module } from '@nestjs/common';
import { ListBalanceTransactionsHandler } from './list-balance-transactions/list-balance-transactions.handler';

/** A merchant's balance transactions, from the ledger (balance-transactions.reader.ts). */
@Module({ providers: [ListBalanceTransactionsHandler] })
export class BalancesFeatureModule {}
