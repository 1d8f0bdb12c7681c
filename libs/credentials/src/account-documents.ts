import { createHmac } from 'node:crypto';
import type { SqlExecutor } from '@app/database';
import { openBytes, sealBytes } from './secrets';

/** A document's bytes as they were uploaded, and what they were declared as. */
export interface DocumentFile {
  contentType: string;
  bytes: Buffer;
}

/**
 * The bytes of the documents uploaded for seller accounts (identity, TIN certificate, trade licence),
 * sealed at rest with AES-256-GCM under a key derived from SECRETS_KEY for documents alone, the
 * account and the document as associated data. The event log names a document by its id and digest.
 */
export class AccountDocuments {
  private readonly key: Buffer;

  constructor(
    private readonly db: SqlExecutor,
    secretsKey: Buffer,
  ) {
    this.key = createHmac('sha256', secretsKey).update('account-documents-v1').digest();
  }

  /** Seals and keeps the bytes under the id the account's event records. */
  async keep(accountId: string, documentId: string, file: DocumentFile): Promise<void> {
    await this.db.query(`INSERT INTO account_documents (document_id, account_id, content_type, sealed) VALUES ($1, $2, $3, $4)`, [
      documentId,
      accountId,
      file.contentType,
      sealBytes(this.key, file.bytes, context(accountId, documentId)),
    ]);
  }

  /** The document's bytes; undefined for an id the account never had. */
  async open(accountId: string, documentId: string): Promise<DocumentFile | undefined> {
    const [row] = await this.db.query<{ content_type: string; sealed: Buffer }>(`SELECT content_type, sealed FROM account_documents WHERE document_id = $1 AND account_id = $2`, [
      documentId,
      accountId,
    ]);
    return row && { contentType: row.content_type, bytes: openBytes(this.key, Buffer.from(row.sealed), context(accountId, documentId)) };
  }
}

const context = (accountId: string, documentId: string) => `account-document:${accountId}:${documentId}`;
