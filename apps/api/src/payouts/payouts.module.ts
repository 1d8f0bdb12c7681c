import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { PayoutsController } from './payouts.controller';
import { RequestPayoutHandler } from './request-payout.handler';
import { SetPayoutDestinationHandler } from './set-payout-destination.handler';

/** A merchant's payouts: where they go, on-demand payouts and their list (the transfers are the payment work's). */
@Module({
  imports: [MerchantAuthModule],
  controllers: [PayoutsController],
  providers: [SetPayoutDestinationHandler, RequestPayoutHandler],
})
export class PayoutsModule {}
