import { Command } from '@nestjs/cqrs';
import type { AccountDocument, DocumentKind } from '@app/domain';
import type { DocumentFile } from '@app/credentials';
import type { EventMetadata } from '@app/event-store';

/** A platform uploads a document for one of its accounts: its bytes are kept sealed, the account's event records what it is. */
export class UploadAccountDocumentCommand extends Command<AccountDocument> {
  constructor(
    readonly platformId: string,
    readonly accountId: string,
    readonly file: DocumentFile & { kind: DocumentKind },
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
