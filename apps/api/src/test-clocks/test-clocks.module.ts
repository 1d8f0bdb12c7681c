import { Module } from '@nestjs/common';
import { TestClocksFeatureModule } from '@app/features/test-clocks';
import { MerchantAuthModule } from '@app/http';
import { TestClocksController } from './test-clocks.controller';

/** A merchant's test clocks; their advances are the payment flow's (libs/payments/src/test-clocks). */
@Module({
  imports: [MerchantAuthModule, TestClocksFeatureModule],
  controllers: [TestClocksController],
})
export class TestClocksModule {}
