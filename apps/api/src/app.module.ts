import { type DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { OnboardingModule, CREDENTIALS, CredentialsModule, LegacyModeAtStartModule } from '@app/onboarding';
import { CallbackDeliveryModule } from '@app/callback-delivery';
import type { AppConfig } from '@app/config';
import type { EventStore } from '@app/event-store';
import { IDEMPOTENCY_MIGRATIONS, InfrastructureModule, ProjectorModule, replayingKeyedRequests, workerModules } from '@app/infrastructure';
import { PaymentsModule, PaymentWorkModule, PayoutAccountsAtStartModule, providerMigrations } from '@app/payments';
import { AccountsModule } from './accounts/accounts.module';
import { AuditModule } from './audit/audit.module';
import { BalancesModule } from './balances/balances.module';
import { CallbacksModule } from './callbacks/callbacks.module';
import { CommissionsModule } from './commissions/commissions.module';
import { EventsModule } from './events/events.module';
import { PayoutsModule } from './payouts/payouts.module';
import { WebhookEndpointsModule } from './webhook-endpoints/webhook-endpoints.module';
import { EscrowsModule } from './escrows/escrows.module';
import { IdempotencyInterceptor } from './http/idempotency.interceptor';
import { MerchantAuthModule } from '@app/http';
import { MerchantsModule } from './merchants/merchants.module';
import { OperationsModule } from './operations/operations.module';
import { rateLimiting, rateLimitMigrations } from './operations/rate-limit/rate-limiting';
import { OrdersModule } from './orders/orders.module';
import { PaymentsHttpModule } from './payments/payments-http.module';
import { TestClocksModule } from './test-clocks/test-clocks.module';
import { TransfersModule } from './transfers/transfers.module';
import { PayablesFeatureModule } from '@app/features/payables';
import { FacesModule } from '../../web/src';

/**
 * The HTTP service; its ROLE adds the projector (`all`, `projector`) and the workers: callbacks,
 * expiries, refunds and the provider reconciler (`all`, `worker`).
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: { eventStore?: EventStore } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(config, {
          eventStore: options.eventStore,
          commandEdge: replayingKeyedRequests,
          migrations: [CREDENTIALS, { component: 'idempotency', migrations: IDEMPOTENCY_MIGRATIONS }, ...providerMigrations(config), ...rateLimitMigrations(config)],
        }),
        CqrsModule.forRoot(),
        CredentialsModule,
        OnboardingModule,
        LegacyModeAtStartModule,
        PayoutAccountsAtStartModule,
        PaymentsModule,
        MerchantAuthModule,
        MerchantsModule,
        PayablesFeatureModule,
        OrdersModule,
        EscrowsModule,
        AccountsModule,
        CommissionsModule,
        PaymentsHttpModule,
        CallbacksModule,
        EventsModule,
        PayoutsModule,
        BalancesModule,
        WebhookEndpointsModule,
        TransfersModule,
        TestClocksModule,
        AuditModule,
        FacesModule,
        OperationsModule,
        ...workerModules(config, { projector: ProjectorModule, workers: [PaymentWorkModule, CallbackDeliveryModule] }),
      ],
      providers: [{ provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }, ...rateLimiting(config)],
    };
  }
}
