import { Module } from '@nestjs/common';
import { AuditLogReader } from '@app/audit';
import { WebModule } from '../kit/web.module';
import { DashboardApiKeysController } from './api-keys/api-keys.controller';
import { DashboardIdentityController } from './identity/dashboard-identity.controller';
import { MerchantSignIn } from './identity/merchant-sign-in.service';
import { ListOrdersHandler } from './orders/list-orders.handler';
import { DashboardOrdersController } from './orders/orders.controller';
import { DashboardPayoutsController } from './payouts/payouts.controller';
import { DashboardStatementController } from './statement/statement.controller';
import { DashboardPayoutSettingsController } from './payouts/payout-settings.controller';
import { DashboardWebhooksController } from './webhooks/webhooks.controller';
import { DashboardSellerHomeController } from './sellers/seller-home.controller';
import { DashboardSellersController } from './sellers/sellers.controller';
import { DashboardTransfersController } from './transfers/transfers.controller';
import { DashboardWebhookEndpointsController } from './webhook-endpoints/webhook-endpoints.controller';
import { DashboardModeSwitchController } from './modes/mode-switch.controller';
import { OwnerTenants } from './modes/owner-tenants';
import { DashboardOverviewController } from './overview/overview.controller';

/** The merchant dashboard at /dashboard: server-rendered pages over the same commands and queries as the API. */
@Module({
  imports: [WebModule],
  controllers: [
    DashboardIdentityController,
    DashboardOverviewController,
    DashboardOrdersController,
    DashboardPayoutsController,
    DashboardPayoutSettingsController,
    DashboardStatementController,
    DashboardApiKeysController,
    DashboardWebhooksController,
    DashboardSellerHomeController,
    DashboardSellersController,
    DashboardTransfersController,
    DashboardWebhookEndpointsController,
    DashboardModeSwitchController,
  ],
  providers: [MerchantSignIn, ListOrdersHandler, OwnerTenants, AuditLogReader],
})
export class DashboardModule {}
