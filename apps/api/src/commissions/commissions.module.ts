import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '@app/http';
import { ChangeCommissionHandler } from './change-commission.handler';
import { CommissionController } from './commission.controller';

/** A platform's commission rules: its default and its sellers' overrides (docs/guides/marketplaces.md#commission-rules). */
@Module({
  imports: [MerchantAuthModule],
  controllers: [CommissionController],
  providers: [ChangeCommissionHandler],
})
export class CommissionsModule {}
