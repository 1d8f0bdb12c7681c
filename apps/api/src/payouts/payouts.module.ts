import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { MerchantAuthModule } from '@app/http';
import { PayoutsFeatureModule } from '@app/features/payouts';
import { PayoutSettingsController } from './payout-settings.controller';
import { PayoutsController } from './payouts.controller';
import { PayoutsPauseController } from './payouts-pause.controller';

/** A merchant's payouts: where they go, their settings, on-demand payouts (of a chosen amount), their pause and cancellation, and their list. */
@Module({
  imports: [MerchantAuthModule, PaymentsModule, PayoutsFeatureModule],
  controllers: [PayoutsController, PayoutsPauseController, PayoutSettingsController],
})
export class PayoutsModule {}
