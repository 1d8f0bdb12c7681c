import { Module } from '@nestjs/common';
import { MerchantsFeatureModule } from '@app/features/merchants';
import { MerchantAuthModule } from '@app/http';
import { InviteOwnerController } from './invite-owner/invite-owner.controller';
import { AdminPlatformLinksController, PlatformLinksController } from './platform-links/platform-links.controller';
import { OtherModeController } from './register-merchant/other-mode.controller';
import { RegisterMerchantController } from './register-merchant/register-merchant.controller';

/** The admin API for merchants and merchants' links to platforms (the commands are libs/onboarding'), and the embedded quick start's demo merchant. */
@Module({
  imports: [MerchantAuthModule, MerchantsFeatureModule],
  controllers: [RegisterMerchantController, OtherModeController, InviteOwnerController, PlatformLinksController, AdminPlatformLinksController],
})
export class MerchantsModule {}
