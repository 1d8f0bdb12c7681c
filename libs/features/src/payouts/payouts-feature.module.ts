import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { CancelPayoutHandler } from './cancel-payout.handler';
import { PausePayoutsHandler } from './pause-payouts.handler';
import { RequestPayoutHandler } from './request-payout.handler';
import { SetPayoutDestinationHandler } from './set-payout-destination.handler';
import { SetPayoutSettingsHandler } from './set-payout-settings.handler';

/** The handlers of a merchant's payouts: where they go, their settings, on-demand payouts (of a chosen amount), their pause and cancellation. */
@Module({
  imports: [PaymentsModule],
  providers: [SetPayoutDestinationHandler, SetPayoutSettingsHandler, RequestPayoutHandler, PausePayoutsHandler, CancelPayoutHandler],
})
export class PayoutsFeatureModule {}
