import { Module } from '@nestjs/common';
import { AccountsFeatureModule } from '@app/features/accounts';
import { CallbacksFeatureModule } from '@app/features/callbacks';
import { EscrowsFeatureModule } from '@app/features/escrows';
import { MerchantsFeatureModule } from '@app/features/merchants';
import { PayablesFeatureModule } from '@app/features/payables';
import { PaymentsFeatureModule } from '@app/features/payments';
import { PayoutsFeatureModule } from '@app/features/payouts';
import { TransfersFeatureModule } from '@app/features/transfers';
import { WebhookEndpointsFeatureModule } from '@app/features/webhook-endpoints';
import { AuditConsoleModule } from './audit-console/audit-console.module';
import { CheckoutPageModule } from './checkout/checkout.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { OnboardingPageModule } from './onboarding/onboarding.module';

/**
 * The server-rendered faces (docs/concepts/architecture.md): the merchant and seller dashboard, the audit
 * console, the hosted onboarding page and the customer's checkout. They send the same commands and queries
 * as the REST edge (libs/contract) and import the feature modules whose handlers answer them, so a process
 * serves them without the REST edge (ROLE=faces); beside it (ROLE=all) Nest registers each handler once.
 */
@Module({
  imports: [
    AccountsFeatureModule,
    CallbacksFeatureModule,
    EscrowsFeatureModule,
    MerchantsFeatureModule,
    PayablesFeatureModule,
    PaymentsFeatureModule,
    PayoutsFeatureModule,
    TransfersFeatureModule,
    WebhookEndpointsFeatureModule,
    DashboardModule,
    AuditConsoleModule,
    OnboardingPageModule,
    CheckoutPageModule,
  ],
})
export class FacesModule {}
