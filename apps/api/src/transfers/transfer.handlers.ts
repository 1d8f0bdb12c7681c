import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { fingerprint, newTransferId, parseEtb, settingsOrDefault, streams, transferDecider, transferIdFor, type TransferOutline, transferOutline } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { PayoutBooksDeps, payoutSettingsInForce, transferAtBooks } from '@app/payments';
import type { TransferView } from '@app/read-models';
import { CreateTransferCommand, ReverseTransferCommand, type TransferReversed } from './transfer.commands';
import { assertTransferParty } from './transfer-party';
import { TransferPartyMissing } from './transfers.errors';

/** Where the platform's transfer callbacks go: its payout callback URL, as the payout settings in force say. */
async function callbackUrlOf(runner: CommandRunner, db: SqlClient, platformId: string): Promise<string | null> {
  return settingsOrDefault(await payoutSettingsInForce(runner, db, platformId)).callbackUrl;
}

/** The transfer a create left, in the view's shape; `at`: when its event was recorded, as the view keeps it. */
function transferViewOf({ terms: created, reversed, reversals }: TransferOutline, at: Date): TransferView {
  return {
    transferId: created.transferId,
    platformId: created.platformId,
    source: created.source,
    destination: created.destination,
    amount: created.amount,
    reversed,
    description: created.description,
    ...(created.metadata ? { metadata: created.metadata } : {}),
    allowNegative: created.allowNegative,
    reversals,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * A transfer to or from the other party, decided at its source's books (transferAtBooks) on the
 * source's balance, which the decider refuses when the source would go below zero.
 */
@CommandHandler(CreateTransferCommand)
export class CreateTransferHandler implements ICommandHandler<CreateTransferCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(PayoutBooksDeps) private readonly books: PayoutBooksDeps,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ merchant, request, metadata, idempotencyKey }: CreateTransferCommand): Promise<TransferView> {
    const party = request.to ?? request.from;
    if (party === undefined || (request.to !== undefined && request.from !== undefined)) throw new TransferPartyMissing();
    const platformId = merchant.merchantId;
    await assertTransferParty(this.db, platformId, party);
    const [source, destination] = request.to !== undefined ? [platformId, party] : [party, platformId];
    const transferId = idempotencyKey ? transferIdFor(merchant.idSalt, idempotencyKey, fingerprint(request)) : newTransferId();
    const callbackUrl = await callbackUrlOf(this.runner, this.db, platformId);
    const terms = {
      transferId,
      platformId,
      source,
      destination,
      amount: parseEtb(request.amount, 'amount'),
      description: request.description,
      ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
      allowNegative: request.allowNegative === true,
      callbackUrl,
    };
    const now = this.clock.now();
    const { state, at } = await transferAtBooks(this.books, source, transferId, now, (sourceAvailable) => ({ type: 'CreateTransfer', data: { ...terms, sourceAvailable, at: now.toISOString() } }), metadata);
    return transferViewOf(transferOutline(state)!, at);
  }
}

/** All or part of a transfer back the other way; the destination may go below zero, so no balance is read. */
@CommandHandler(ReverseTransferCommand)
export class ReverseTransferHandler implements ICommandHandler<ReverseTransferCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ merchant, transferId, amount, metadata }: ReverseTransferCommand): Promise<TransferReversed> {
    const platformId = merchant.merchantId;
    const callbackUrl = await callbackUrlOf(this.runner, this.db, platformId);
    const { state } = await this.runner.run(
      streams.transfer(transferId),
      transferDecider,
      { type: 'ReverseTransfer', data: { transferId, platformId, ...(amount !== undefined ? { amount: parseEtb(amount, 'amount') } : {}), at: this.clock.now().toISOString(), callbackUrl } },
      metadata,
    );
    const { terms, reversals, reversed } = transferOutline(state)!;
    return { transferId, reversal: reversals.at(-1)!, amount: terms.amount, reversed };
  }
}
