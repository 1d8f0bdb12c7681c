import { Module } from '@nestjs/common';
import { AdminAuthGuard, MerchantAuthGuard } from './auth.guards';

@Module({
  providers: [MerchantAuthGuard, AdminAuthGuard],
  exports: [MerchantAuthGuard, AdminAuthGuard],
})
export class MerchantAuthModule {}
