import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { DemoMerchantService } from './demo-merchant.service';
import { InviteOwnerController } from './invite-owner/invite-owner.controller';
import { InviteOwnerHandler } from './invite-owner/invite-owner.handler';
import { RegisterMerchantController } from './register-merchant/register-merchant.controller';
import { RegisterMerchantHandler } from './register-merchant/register-merchant.handler';
import { RotateApiSecretHandler } from './rotate-api-secret/rotate-api-secret.handler';

@Module({
  imports: [MerchantAuthModule],
  controllers: [RegisterMerchantController, InviteOwnerController],
  providers: [RegisterMerchantHandler, RotateApiSecretHandler, InviteOwnerHandler, DemoMerchantService],
  exports: [DemoMerchantService],
})
export class MerchantsModule {}
