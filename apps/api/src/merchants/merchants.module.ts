import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { DemoMerchantService } from './demo-merchant.service';
import { RegisterMerchantController } from './register-merchant/register-merchant.controller';
import { RegisterMerchantHandler } from './register-merchant/register-merchant.handler';

@Module({
  imports: [MerchantAuthModule],
  controllers: [RegisterMerchantController],
  providers: [RegisterMerchantHandler, DemoMerchantService],
  exports: [DemoMerchantService],
})
export class MerchantsModule {}
