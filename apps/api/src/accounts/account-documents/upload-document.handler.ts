import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { createHash, randomBytes } from 'node:crypto';
import { type AccountCommand, type AccountDocument, accountDecider, streams } from '@app/domain';
import { AccountDocuments } from '@app/credentials';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { UploadAccountDocumentCommand } from './upload-document.command';

@CommandHandler(UploadAccountDocumentCommand)
export class UploadAccountDocumentHandler implements ICommandHandler<UploadAccountDocumentCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(AccountDocuments) private readonly documents: AccountDocuments,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ platformId, accountId, file, metadata }: UploadAccountDocumentCommand): Promise<AccountDocument> {
    const documentId = `doc_${randomBytes(12).toString('hex')}`;
    const document = { documentId, kind: file.kind, contentType: file.contentType, size: file.bytes.length, sha256: createHash('sha256').update(file.bytes).digest('hex') };
    const command: AccountCommand = { type: 'RecordAccountDocument', data: { accountId, merchantId: platformId, document, at: this.clock.now().toISOString() } };
    // Decided once before the bytes are kept, so that a refused upload (another platform's account, a rejected one) keeps
    // nothing; the runner decides again on the stream it appends to.
    accountDecider.decide(command, (await this.runner.read(streams.account(accountId), accountDecider)).state);
    await this.documents.keep(accountId, documentId, file);
    const { state } = await this.runner.run(streams.account(accountId), accountDecider, command, metadata);
    return state.account!.documents!.find((d) => d.documentId === documentId)!;
  }
}
