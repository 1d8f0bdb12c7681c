import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { AppConfig } from '@app/config';
import { EscrowsModule } from './escrows/escrows.module';
import { MerchantAuthModule } from './http/merchant-auth.module';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { ProjectorService } from './infrastructure/projector.service';
import { MerchantsModule } from './merchants/merchants.module';
import { OrdersModule } from './orders/orders.module';
import { PaymentsModule } from './payments/payments.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(config),
        CqrsModule.forRoot(),
        MerchantAuthModule,
        MerchantsModule,
        OrdersModule,
        EscrowsModule,
        PaymentsModule,
      ],
      providers: [ProjectorService],
    };
  }
}
