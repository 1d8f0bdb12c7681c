import { Module } from '@nestjs/common';
import { AdminAuthGuard, MerchantAuthenticator, MerchantAuthGuard } from './auth.guards';

@Module({
  providers: [MerchantAuthenticator, MerchantAuthGuard, AdminAuthGuard],
  exports: [MerchantAuthenticator, MerchantAuthGuard, AdminAuthGuard],
})
export class MerchantAuthModule {}
