import { ApiProperty } from '@nestjs/swagger';
import { DOCUMENT_KINDS } from '@app/domain';

/** Who uploaded a document: the platform by the API, or the account itself on the hosted onboarding page. */
export class DocumentUploaderResponse {
  @ApiProperty({ enum: ['merchant'], example: 'merchant' })
  type!: string;

  @ApiProperty({ example: 'mer_2ef868dd3eaa4866d7a19e7d', description: "The platform's merchant id when it uploaded by the API; the account's own id (acct_…) when its seller uploaded on the hosted onboarding page" })
  id!: string;
}

/** A document uploaded for an account: what it is, never its bytes (GET …/documents/{documentId} downloads them). */
export class AccountDocumentResponse {
  @ApiProperty({ example: 'doc_5f0c1e9a2b7d4c3e8f1a6b2c' })
  documentId!: string;

  @ApiProperty({ enum: DOCUMENT_KINDS })
  kind!: string;

  @ApiProperty({ enum: ['application/pdf', 'image/jpeg', 'image/png'] })
  contentType!: string;

  @ApiProperty({ example: 184_211, description: 'Bytes' })
  size!: number;

  @ApiProperty({ example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', description: 'SHA-256 of the bytes, hex: the download is these bytes' })
  sha256!: string;

  @ApiProperty({ format: 'date-time' })
  uploadedAt!: string;

  @ApiProperty({ type: DocumentUploaderResponse, description: 'Who uploaded it' })
  uploadedBy!: DocumentUploaderResponse;
}

export class AccountDocumentsResponse {
  @ApiProperty({ type: [AccountDocumentResponse], description: 'Oldest first' })
  documents!: AccountDocumentResponse[];
}
