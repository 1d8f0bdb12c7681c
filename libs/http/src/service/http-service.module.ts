import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { CallbackDeliveryModule } from '@app/callback-delivery';
import type { AppConfig } from '@app/config';
import type { EventStore } from '@app/event-store';
import { IDEMPOTENCY_MIGRATIONS, InfrastructureModule, ProjectorModule, replayingKeyedRequests, workerModules } from '@app/infrastructure';
import { CREDENTIALS, CredentialsModule, LegacyModeAtStartModule, OnboardingModule } from '@app/onboarding';
import { PaymentsModule, PaymentWorkModule, PayoutAccountsAtStartModule, providerMigrations } from '@app/payments';
import { IdempotencyInterceptor } from '../idempotency.interceptor';
import { MerchantAuthModule } from '../merchant-auth.module';
import { OperationsModule } from '../operations/operations.module';
import { rateLimiting, rateLimitMigrations } from '../operations/rate-limit/rate-limiting';

/**
 * An HTTP process around the wings it serves (the REST edge, the faces or both): storage and the command
 * runner, the credentials, the payment providers, health and metrics, idempotent POSTs, the rate limit, and,
 * by its ROLE, the projector (`all`, `projector`) and the workers: callbacks, expiries, refunds and the
 * provider reconciler (`all`, `worker`). Each wing imports the feature modules whose handlers it sends to;
 * Nest registers a module imported by both wings once.
 */
@Module({})
export class HttpServiceModule {
  static forRoot(config: AppConfig, options: { wings: readonly Type[]; eventStore?: EventStore }): DynamicModule {
    return {
      module: HttpServiceModule,
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
        ...options.wings,
        OperationsModule,
        ...workerModules(config, { projector: ProjectorModule, workers: [PaymentWorkModule, CallbackDeliveryModule] }),
      ],
      providers: [{ provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }, ...rateLimiting(config)],
    };
  }
}
