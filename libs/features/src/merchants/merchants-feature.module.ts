import { Module } from '@nestjs/common';
import { DemoMerchantService } from './demo-merchant.service';

/** The embedded quick start's demo merchant (the merchants' commands are libs/onboarding's). */
@Module({
  providers: [DemoMerchantService],
  exports: [DemoMerchantService],
})
export class MerchantsFeatureModule {}
