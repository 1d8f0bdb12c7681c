import { Module } from '@nestjs/common';
import { GetPayableHandler } from './get-payable.handler';
import { ListPayablesHandler } from './list-payables.handler';

/** Queries over orders and escrows alike (payables_view). */
@Module({ providers: [GetPayableHandler, ListPayablesHandler] })
export class PayablesFeatureModule {}
