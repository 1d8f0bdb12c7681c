import { Module } from '@nestjs/common';
import { GetBalanceHandler } from './get-balance.handler';

/** A merchant's or an account's balance, from the ledger and the escrows' allocations. */
@Module({ providers: [GetBalanceHandler] })
export class BalancesFeatureModule {}
