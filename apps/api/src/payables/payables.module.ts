import { Module } from '@nestjs/common';
import { GetPayableHandler } from './get-payable.handler';

/** Queries over orders and escrows alike (payables_view). */
@Module({ providers: [GetPayableHandler] })
export class PayablesModule {}
