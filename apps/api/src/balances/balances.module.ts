import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { BalanceController } from './balance.controller';

/** A merchant's balance, from the ledger and the escrows' allocations. */
@Module({ imports: [MerchantAuthModule], controllers: [BalanceController] })
export class BalancesModule {}
