import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { PayoutsController } from './payouts.controller';
import { SetPayoutDestinationHandler } from './set-payout-destination.handler';

/** Where a merchant's payouts go. */
@Module({
  imports: [MerchantAuthModule],
  controllers: [PayoutsController],
  providers: [SetPayoutDestinationHandler],
})
export class PayoutsModule {}
