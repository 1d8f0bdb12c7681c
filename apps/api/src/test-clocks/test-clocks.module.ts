import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '@app/http';
import { CreateTestClockHandler, DeleteTestClockHandler } from './test-clock.handlers';
import { TestClocksController } from './test-clocks.controller';

/** A merchant's test clocks; their advances are the payment flow's (libs/payments/src/test-clocks). */
@Module({
  imports: [MerchantAuthModule],
  controllers: [TestClocksController],
  providers: [CreateTestClockHandler, DeleteTestClockHandler],
})
export class TestClocksModule {}
