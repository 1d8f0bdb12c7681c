import { type DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import type { AppConfig } from '@app/config';
import type { EventStore } from '@app/event-store';
import { AuditModule } from './audit/audit.module';
import { AuditConsoleModule } from './audit-console/audit-console.module';
import { CallbacksModule } from './callbacks/callbacks.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { EscrowsModule } from './escrows/escrows.module';
import { MerchantAuthModule } from './http/merchant-auth.module';
import { IdempotencyInterceptor } from './http/idempotency/idempotency.interceptor';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { ProjectorService } from './infrastructure/projector.service';
import { MerchantsModule } from './merchants/merchants.module';
import { OperationsModule } from './operations/operations.module';
import { rateLimiting } from './operations/rate-limit';
import { OrdersModule } from './orders/orders.module';
import { PaymentsModule } from './payments/payments.module';
import { SchedulingModule } from './scheduling/scheduling.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: { eventStore?: EventStore } = {}): DynamicModule {
    const limits = rateLimiting(config);
    return {
      module: AppModule,
      imports: [
        limits.module,
        InfrastructureModule.forRoot(config, options.eventStore),
        CqrsModule.forRoot(),
        MerchantAuthModule,
        MerchantsModule,
        OrdersModule,
        EscrowsModule,
        PaymentsModule,
        SchedulingModule,
        CallbacksModule,
        AuditModule,
        DashboardModule,
        AuditConsoleModule,
        OperationsModule,
      ],
      providers: [ProjectorService, { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }, ...limits.providers],
    };
  }
}
