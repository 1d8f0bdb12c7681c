import { Module } from '@nestjs/common';
import { accountDocumentsProvider } from '@app/contract';
import { MerchantAuthModule } from '@app/http';
import { CreateAccountController } from './create-account/create-account.controller';
import { CreateAccountHandler } from './create-account/create-account.handler';
import { GetAccountsController } from './get-accounts/get-accounts.controller';
import { UpdateAccountController } from './update-account/update-account.controller';
import { UpdateAccountHandler } from './update-account/update-account.handler';
import { ReviewAccountHandler } from './review-account/review-account.handler';
import { InviteAccountOwnerController } from './invite-account-owner/invite-account-owner.controller';
import { InviteAccountOwnerHandler, RecordAccountInvitationUsedHandler } from './invite-account-owner/invite-account-owner.handler';
import { AccountDocumentsController, AdminAccountDocumentsController } from './account-documents/account-documents.controller';
import { UploadAccountDocumentHandler } from './account-documents/upload-document.handler';
import { AdminAccountReviewController } from './review-account/admin-review.controller';
import { RequestAccountInformationHandler } from './request-information/request-information.handler';
import { CreateAccountLinkController } from './create-account-link/create-account-link.controller';
import { CreateAccountLinkHandler } from './create-account-link/create-account-link.handler';
import { CloseAccountController } from './close-account/close-account.controller';
import { CloseAccountHandler } from './close-account/close-account.handler';

/**
 * A platform's sellers, as accounts it creates, reads and changes with its own key or lets them complete
 * on the hosted page, and their documents, and closes (docs/guides/marketplaces.md); the operator's review of them
 * with the admin key.
 */
@Module({
  imports: [MerchantAuthModule],
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
  providers: [
    CreateAccountHandler,
    UpdateAccountHandler,
    ReviewAccountHandler,
    InviteAccountOwnerHandler,
    RecordAccountInvitationUsedHandler,
    RequestAccountInformationHandler,
    UploadAccountDocumentHandler,
    CreateAccountLinkHandler,
    CloseAccountHandler,
    accountDocumentsProvider,
  ],
})
export class AccountsModule {}
