import { Module } from '@nestjs/common';
import { AccountsFeatureModule } from '@app/features/accounts';
import { MerchantAuthModule } from '@app/http';
import { CreateAccountController } from './create-account/create-account.controller';
import { GetAccountsController } from './get-accounts/get-accounts.controller';
import { UpdateAccountController } from './update-account/update-account.controller';
import { InviteAccountOwnerController } from './invite-account-owner/invite-account-owner.controller';
import { AccountDocumentsController, AdminAccountDocumentsController } from './account-documents/account-documents.controller';
import { AdminAccountReviewController } from './review-account/admin-review.controller';
import { CreateAccountLinkController } from './create-account-link/create-account-link.controller';
import { CloseAccountController } from './close-account/close-account.controller';

/**
 * A platform's sellers, as accounts it creates, reads and changes with its own key or lets them complete
 * on the hosted page, and their documents, and closes (docs/guides/marketplaces.md); the operator's review of them
 * with the admin key.
 */
@Module({
  imports: [MerchantAuthModule, AccountsFeatureModule],
  controllers: [
    CreateAccountController,
    UpdateAccountController,
    GetAccountsController,
    InviteAccountOwnerController,
    AccountDocumentsController,
    AdminAccountDocumentsController,
    AdminAccountReviewController,
    CreateAccountLinkController,
    CloseAccountController,
  ],
})
export class AccountsModule {}
