import { Module } from '@nestjs/common';
import { accountDocumentsProvider } from '@app/contract';
import { AccountDocuments } from '@app/credentials';
import { PaymentsModule } from '@app/payments';
import { UploadAccountDocumentHandler } from './account-documents/upload-document.handler';
import { CloseAccountHandler } from './close-account/close-account.handler';
import { CreateAccountLinkHandler } from './create-account-link/create-account-link.handler';
import { CreateAccountHandler } from './create-account/create-account.handler';
import { GetAccountHandler, ListAccountsHandler } from './get-accounts/get-accounts.handler';
import { InviteAccountOwnerHandler, RecordAccountInvitationUsedHandler } from './invite-account-owner/invite-account-owner.handler';
import { RequestAccountInformationHandler } from './request-information/request-information.handler';
import { ReviewAccountHandler } from './review-account/review-account.handler';
import { UpdateAccountHandler } from './update-account/update-account.handler';

/**
 * A platform's sellers as accounts: created, changed, read with their balances, linked to the hosted page,
 * invited, given documents and closed, and the operator's review of them. The documents' store is the upload's and the download routes'.
 */
@Module({
  imports: [PaymentsModule],
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
    ListAccountsHandler,
    GetAccountHandler,
    accountDocumentsProvider,
  ],
  exports: [AccountDocuments],
})
export class AccountsFeatureModule {}
