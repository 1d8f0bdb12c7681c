import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { CreateAccountController } from './create-account/create-account.controller';
import { CreateAccountHandler } from './create-account/create-account.handler';
import { GetAccountsController } from './get-accounts/get-accounts.controller';
import { UpdateAccountController } from './update-account/update-account.controller';
import { UpdateAccountHandler } from './update-account/update-account.handler';
import { ReviewAccountHandler } from './review-account/review-account.handler';
import { InviteAccountOwnerController } from './invite-account-owner/invite-account-owner.controller';
import { InviteAccountOwnerHandler, RecordAccountInvitationUsedHandler } from './invite-account-owner/invite-account-owner.handler';
import { CreateAccountLinkController } from './create-account-link/create-account-link.controller';
import { CreateAccountLinkHandler } from './create-account-link/create-account-link.handler';

/** A platform's sellers, as accounts it creates, reads and changes with its own key, or lets them complete on the hosted page (docs/guides/marketplaces.md). */
@Module({
  imports: [MerchantAuthModule],
  controllers: [CreateAccountController, UpdateAccountController, GetAccountsController, InviteAccountOwnerController, CreateAccountLinkController],
  providers: [CreateAccountHandler, UpdateAccountHandler, ReviewAccountHandler, InviteAccountOwnerHandler, RecordAccountInvitationUsedHandler, CreateAccountLinkHandler],
})
export class AccountsModule {}
