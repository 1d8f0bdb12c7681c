import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '@app/http';
import { CommissionsFeatureModule } from '@app/features/commissions';
import { CommissionController } from './commission.controller';

/** A platform's commission rules: its default and its sellers' overrides (docs/guides/marketplaces.md#commission-rules). */
@Module({
  imports: [MerchantAuthModule, CommissionsFeatureModule],
  controllers: [CommissionController],
})
export class CommissionsModule {}
