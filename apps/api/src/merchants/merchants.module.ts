import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { DemoMerchantService } from './demo-merchant.service';
import { RegisterMerchantController } from './register-merchant/register-merchant.controller';
import { RegisterMerchantHandler } from './register-merchant/register-merchant.handler';
import { RotateApiSecretHandler } from './rotate-api-secret/rotate-api-secret.handler';

@Module({
  imports: [MerchantAuthModule],
  controllers: [RegisterMerchantController],
  providers: [RegisterMerchantHandler, RotateApiSecretHandler, DemoMerchantService],
  exports: [DemoMerchantService],
})
export class MerchantsModule {}
