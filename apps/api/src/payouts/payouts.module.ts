import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { PayoutSettingsController } from './payout-settings.controller';
import { PayoutsController } from './payouts.controller';
import { RequestPayoutHandler } from './request-payout.handler';
import { SetPayoutDestinationHandler } from './set-payout-destination.handler';
import { SetPayoutSettingsHandler } from './set-payout-settings.handler';

/** A merchant's payouts: where they go, their settings, on-demand payouts and their list. */
@Module({
  imports: [MerchantAuthModule, PaymentsModule],
  controllers: [PayoutsController, PayoutSettingsController],
  providers: [SetPayoutDestinationHandler, SetPayoutSettingsHandler, RequestPayoutHandler],
})
export class PayoutsModule {}
