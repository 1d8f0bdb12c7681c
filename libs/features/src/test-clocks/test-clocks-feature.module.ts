import { Module } from '@nestjs/common';
import { CreateTestClockHandler, DeleteTestClockHandler } from './test-clock.handlers';

/** A merchant's test clocks, created and deleted; their advances are the payment flow's (libs/payments/src/test-clocks). */
@Module({
  providers: [CreateTestClockHandler, DeleteTestClockHandler],
})
export class TestClocksFeatureModule {}
