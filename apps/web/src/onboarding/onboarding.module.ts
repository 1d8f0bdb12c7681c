import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { WebModule } from '../kit/web.module';
import { OnboardingController } from './onboarding.controller';

/** The hosted onboarding page at /onboarding, which account links open: the seller's own face, beside the dashboard and the audit console. */
@Module({
  imports: [WebModule, PaymentsModule],
  controllers: [OnboardingController],
})
export class OnboardingPageModule {}
