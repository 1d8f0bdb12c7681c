import { Module } from '@nestjs/common';
import { AuditConsoleModule } from './audit-console/audit-console.module';
import { CheckoutPageModule } from './checkout/checkout.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { OnboardingPageModule } from './onboarding/onboarding.module';

/**
 * The server-rendered faces (docs/concepts/architecture.md): the merchant and seller dashboard, the audit
 * console, the hosted onboarding page and the customer's checkout. They send the same commands and queries
 * as the REST edge (libs/contract) and read the same libraries; the process that serves them registers the
 * handlers (apps/api/src/app.module.ts).
 */
@Module({
  imports: [DashboardModule, AuditConsoleModule, OnboardingPageModule, CheckoutPageModule],
})
export class FacesModule {}
