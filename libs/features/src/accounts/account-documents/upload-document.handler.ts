import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { createHash, randomBytes } from 'node:crypto';
import { type AccountCommand, type AccountDocument, accountDecider, streams } from '@app/domain';
import { AccountDocuments } from '@app/credentials';
import { Clocks, CommandRunner, onClock } from '@app/infrastructure';
import { UploadAccountDocumentCommand } from '@app/contract';

@CommandHandler(UploadAccountDocumentCommand)
export class UploadAccountDocumentHandler implements ICommandHandler<UploadAccountDocumentCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(AccountDocuments) private readonly documents: AccountDocuments,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ platformId, accountId, uploadedBy, file, metadata }: UploadAccountDocumentCommand): Promise<AccountDocument> {
    const documentId = `doc_${randomBytes(12).toString('hex')}`;
    const document = { documentId, kind: file.kind, contentType: file.contentType, size: file.bytes.length, sha256: createHash('sha256').update(file.bytes).digest('hex') };
    // On the account's own clock: whether the upload lifts a past-due restriction is judged at the account's time (docs/concepts/time.md).
    const clock = await this.clocks.ofStream(streams.account(accountId));
    const command: AccountCommand = { type: 'RecordAccountDocument', data: { accountId, merchantId: platformId, uploadedBy, document, at: clock.clock.now().toISOString() } };
    // Decided once before the bytes are kept, so that a refused upload (another platform's account, a rejected one) keeps
    // nothing; the runner decides again on the stream it appends to.
    accountDecider.decide(command, (await this.runner.read(streams.account(accountId), accountDecider)).state);
    await this.documents.keep(accountId, documentId, file);
    const { state } = await this.runner.run(streams.account(accountId), accountDecider, command, onClock(metadata, clock));
    return state.account!.documents!.find((d) => d.documentId === documentId)!;
  }
}
