import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountDocuments, type AuthenticatedMerchant } from '@app/credentials';
import { type Account, AccountNotFound, DOCUMENT_KINDS } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { AccountDirectory } from '@app/onboarding';
import { envelope, ApiEnvelope, ApiProblems, AdminApi, MerchantApi, CurrentMerchant, RequestMetadata } from '@app/http';
import { AccountDocumentResponse, AccountDocumentsResponse } from './account-document.response';
import { DOCUMENT_CONTENT_TYPES, MAX_DOCUMENT_BYTES, readDocumentUpload, sendDocument, UploadAccountDocumentCommand } from '@app/contract';

const DOWNLOAD = { status: 200, description: 'The bytes as uploaded (their SHA-256 is the listed sha256), as an attachment', content: Object.fromEntries(DOCUMENT_CONTENT_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) };

/** Read from the account's own stream, never a view that may lag behind an upload answered a moment ago. */
function documentsOf(account: Account | undefined, accountId: string) {
  if (!account) throw new AccountNotFound(accountId);
  return envelope('Documents', { documents: account.documents ?? [] });
}

/** The document's bytes, when the account has it; any other id is not found. */
async function download(store: AccountDocuments, account: Account | undefined, accountId: string, documentId: string, reply: FastifyReply) {
  if (!account) throw new AccountNotFound(accountId);
  const file = account.documents?.some((d) => d.documentId === documentId) ? await store.open(accountId, documentId) : undefined;
  if (!file) throw new AccountNotFound(`${accountId}'s document ${documentId}`);
  return sendDocument(reply, documentId, file);
}

/**
 * The documents a platform uploads for its own accounts (docs/guides/marketplaces.md): an identity
 * document, the TIN certificate, the trade licence. Another platform's account is not found.
 */
@ApiTags('accounts')
@Controller('v1/trdp/accounts')
@MerchantApi()
export class AccountDocumentsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
    @Inject(AccountDocuments) private readonly store: AccountDocuments,
  ) {}

  @Post(':accountId/documents')
  @HttpCode(201)
  @ApiOperation({ summary: `Upload a document for one of your accounts (multipart/form-data: kind and file; a PDF, JPEG or PNG of at most ${MAX_DOCUMENT_BYTES} bytes); it meets a requirement of its kind. Kept encrypted; the log records its kind, size and SHA-256 only` })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['kind', 'file'],
      additionalProperties: false,
      properties: { kind: { type: 'string', enum: [...DOCUMENT_KINDS] }, file: { type: 'string', format: 'binary', description: DOCUMENT_CONTENT_TYPES.join(', ') } },
    },
  })
  @ApiEnvelope(AccountDocumentResponse, { status: 201, message: 'Document uploaded' })
  @ApiProblems({
    400: ['DOCUMENT_KIND_INVALID', 'DOCUMENT_FILE_MISSING', 'UNKNOWN_FIELD', 'BadRequestException'],
    404: ['ABC_001'],
    409: ['ACCOUNT_REJECTED_IS_FINAL', 'ACCOUNT_CLOSED', 'CONCURRENT_MODIFICATION'],
    413: ['DOCUMENT_TOO_LARGE'],
    415: ['DOCUMENT_TYPE_UNSUPPORTED', 'UNSUPPORTED_MEDIA_TYPE'],
  })
  async upload(@Param('accountId') accountId: string, @Req() request: FastifyRequest, @CurrentMerchant() merchant: AuthenticatedMerchant, @RequestMetadata() metadata: EventMetadata) {
    // Another platform's account is not found whatever the body holds: nothing of the upload is read for it.
    if (!(await this.accounts.ownedBy(merchant.merchantId, accountId))) throw new AccountNotFound(accountId);
    const file = await readDocumentUpload(request);
    return envelope('Document uploaded', await this.commands.execute(new UploadAccountDocumentCommand(merchant.merchantId, accountId, merchant.merchantId, file, metadata)));
  }

  @Get(':accountId/documents')
  @ApiOperation({ summary: "One of your accounts' documents: what each is, never its bytes" })
  @ApiEnvelope(AccountDocumentsResponse, { message: 'Documents' })
  @ApiProblems({ 404: ['ABC_001'] })
  async list(@Param('accountId') accountId: string, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    return documentsOf(await this.accounts.ownedBy(merchant.merchantId, accountId), accountId);
  }

  @Get(':accountId/documents/:documentId')
  @ApiOperation({ summary: 'Download a document of one of your accounts' })
  @ApiProduces(...DOCUMENT_CONTENT_TYPES)
  @ApiResponse(DOWNLOAD)
  @ApiProblems({ 404: ['ABC_001'] })
  async download(@Param('accountId') accountId: string, @Param('documentId') documentId: string, @CurrentMerchant() merchant: AuthenticatedMerchant, @Res() reply: FastifyReply) {
    return download(this.store, await this.accounts.ownedBy(merchant.merchantId, accountId), accountId, documentId, reply);
  }
}

/** The operator's staff read any account's documents (with the admin key), to review it. */
@ApiTags('admin')
@Controller('v1/admin/accounts')
@AdminApi()
export class AdminAccountDocumentsController {
  constructor(
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
    @Inject(AccountDocuments) private readonly store: AccountDocuments,
  ) {}

  @Get(':accountId/documents')
  @ApiOperation({ summary: "An account's documents, to review it" })
  @ApiEnvelope(AccountDocumentsResponse, { message: 'Documents' })
  @ApiProblems({ 404: ['ABC_001'] })
  async list(@Param('accountId') accountId: string) {
    return documentsOf(await this.accounts.find(accountId), accountId);
  }

  @Get(':accountId/documents/:documentId')
  @ApiOperation({ summary: "Download one of an account's documents" })
  @ApiProduces(...DOCUMENT_CONTENT_TYPES)
  @ApiResponse(DOWNLOAD)
  @ApiProblems({ 404: ['ABC_001'] })
  async download(@Param('accountId') accountId: string, @Param('documentId') documentId: string, @Res() reply: FastifyReply) {
    return download(this.store, await this.accounts.find(accountId), accountId, documentId, reply);
  }
}
