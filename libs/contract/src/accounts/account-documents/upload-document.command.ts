import { Command } from '@nestjs/cqrs';
import type { AccountDocument, DocumentKind } from '@app/domain';
import type { DocumentFile } from '@app/credentials';
import type { EventMetadata } from '@app/event-store';

/**
 * A document for one of a platform's accounts, uploaded by the platform (the API) or by its seller on the
 * hosted onboarding page: its bytes are kept sealed, the account's event records what it is and who sent
 * it (`uploadedBy`: the platform's id, or the account's own when its seller uploads).
 */
export class UploadAccountDocumentCommand extends Command<AccountDocument> {
  constructor(
    readonly platformId: string,
    readonly accountId: string,
    readonly uploadedBy: string,
    readonly file: DocumentFile & { kind: DocumentKind },
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
