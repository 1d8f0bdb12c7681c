import { Module } from '@nestjs/common';
import { BalancesFeatureModule } from '@app/features/balances';
import { MerchantAuthModule } from '@app/http';
import { BalanceController } from './balance.controller';
import { BalanceTransactionsController } from './balance-transactions.controller';

/** A merchant's balance and its lines, from the ledger and the escrows' allocations. */
@Module({ imports: [MerchantAuthModule, BalancesFeatureModule], controllers: [BalanceController, BalanceTransactionsController] })
export class BalancesModule {}
