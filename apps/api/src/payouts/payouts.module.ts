import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { MerchantAuthModule } from '@app/http';
import { PayoutSettingsController } from './payout-settings.controller';
import { PayoutsController } from './payouts.controller';
import { PayoutsPauseController } from './payouts-pause.controller';
import { PausePayoutsHandler } from './pause-payouts.handler';
import { CancelPayoutHandler } from './cancel-payout.handler';
import { RequestPayoutHandler } from './request-payout.handler';
import { SetPayoutDestinationHandler } from './set-payout-destination.handler';
import { SetPayoutSettingsHandler } from './set-payout-settings.handler';

/** A merchant's payouts: where they go, their settings, on-demand payouts (of a chosen amount), their pause and cancellation, and their list. */
@Module({
  imports: [MerchantAuthModule, PaymentsModule],
  controllers: [PayoutsController, PayoutsPauseController, PayoutSettingsController],
  providers: [SetPayoutDestinationHandler, SetPayoutSettingsHandler, RequestPayoutHandler, PausePayoutsHandler, CancelPayoutHandler],
})
export class PayoutsModule {}
