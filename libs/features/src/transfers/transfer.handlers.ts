import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  escrowDecider,
  fingerprint,
  may,
  newTransferId,
  orderDecider,
  parseEtb,
  type Principal,
  settingsOrDefault,
  streams,
  transferDecider,
  transferIdFor,
  transferOutline,
} from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { PartyRelations } from '@app/onboarding';
import { PayoutBooksDeps, payoutSettingsInForce, transferAtBooks } from '@app/payments';
import { type TransferView, transferView } from '@app/read-models';
import { CreateTransferCommand, ReverseTransferCommand, type TransferReversed } from '@app/contract';
import { TransferBelongsToOne, TransferPartyMissing, UnknownTransferParty, UnknownTransferPayable } from './transfers.errors';

/** Where the platform's transfer callbacks go: its payout callback URL, as the payout settings in force say. */
async function callbackUrlOf(runner: CommandRunner, platformId: string): Promise<string | null> {
  return settingsOrDefault(await payoutSettingsInForce(runner, platformId)).callbackUrl;
}

/**
 * The other party as the request names it: an id, or the reference of one of the caller's own accounts
 * (as an escrow's allocations name them: PartyRelations.resolve with the caller's id salt; another
 * platform's reference names nothing). The caller may make the movement on it
 * (libs/domain/src/authority/authority.ts), else the party is not found. A transfer to or from the caller
 * itself is refused as well: it would move nothing. Its id, as the transfer keeps it.
 */
async function otherParty(relations: PartyRelations, principal: Principal, movement: 'credit' | 'debit', named: string, caller: { merchantId: string; idSalt: string }): Promise<string> {
  const { partyId, relation } = (await relations.resolve(principal, [named], caller.idSalt)).get(named)!;
  if (partyId === caller.merchantId || !may(principal, movement, relation)) throw new UnknownTransferParty(named);
  return partyId;
}

/** What the transfer belongs to, when the request names it: one of the caller's escrows or payment orders, read from its stream (a view may lag behind its creation). */
async function belongsTo(runner: CommandRunner, platformId: string, request: { escrowId?: string; orderId?: string }): Promise<{ escrowId?: string; orderId?: string }> {
  const { escrowId, orderId } = request;
  if (escrowId !== undefined && orderId !== undefined) throw new TransferBelongsToOne();
  if (escrowId !== undefined) {
    const { state } = await runner.read(streams.escrow(escrowId), escrowDecider);
    if (state.created?.merchantId !== platformId) throw new UnknownTransferPayable('escrow', escrowId);
    return { escrowId };
  }
  if (orderId !== undefined) {
    const { state } = await runner.read(streams.order(orderId), orderDecider);
    if (state.created?.merchantId !== platformId) throw new UnknownTransferPayable('order', orderId);
    return { orderId };
  }
  return {};
}

/**
 * A transfer to or from the other party, decided at its source's books (transferAtBooks) on the
 * source's balance, which the decider refuses when the source would go below zero.
 */
@CommandHandler(CreateTransferCommand)
export class CreateTransferHandler implements ICommandHandler<CreateTransferCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PayoutBooksDeps) private readonly books: PayoutBooksDeps,
    @Inject(PartyRelations) private readonly relations: PartyRelations,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, merchant, request, metadata, idempotencyKey }: CreateTransferCommand): Promise<TransferView> {
    const named = request.to ?? request.from;
    if (named === undefined || (request.to !== undefined && request.from !== undefined)) throw new TransferPartyMissing();
    const platformId = merchant.merchantId;
    const [party, payable] = await Promise.all([otherParty(this.relations, principal, request.to !== undefined ? 'credit' : 'debit', named, merchant), belongsTo(this.runner, platformId, request)]);
    const [source, destination] = request.to !== undefined ? [platformId, party] : [party, platformId];
    const transferId = idempotencyKey ? transferIdFor(merchant.idSalt, idempotencyKey, fingerprint(request)) : newTransferId();
    const callbackUrl = await callbackUrlOf(this.runner, platformId);
    const terms = {
      transferId,
      platformId,
      source,
      destination,
      amount: parseEtb(request.amount, 'amount'),
      description: request.description,
      ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
      ...payable,
      allowNegative: request.allowNegative === true,
      callbackUrl,
    };
    const now = this.clock.now();
    const { state, at } = await transferAtBooks(this.books, source, transferId, now, (sourceAvailable) => ({ type: 'CreateTransfer', data: { ...terms, sourceAvailable, at: now.toISOString() } }), metadata);
    return transferView(transferOutline(state)!, { createdAt: at, updatedAt: at });
  }
}

/**
 * All or part of a transfer back the other way; the destination may go below zero, so no balance is read.
 * A reversal debits the transfer's destination, which the caller must still have the authority to
 * debit (a link revoked since stops it); another's transfer, as one that does not exist, is not found.
 */
@CommandHandler(ReverseTransferCommand)
export class ReverseTransferHandler implements ICommandHandler<ReverseTransferCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PartyRelations) private readonly relations: PartyRelations,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, merchant, transferId, amount, metadata }: ReverseTransferCommand): Promise<TransferReversed> {
    const platformId = merchant.merchantId;
    const known = await this.runner.read(streams.transfer(transferId), transferDecider);
    const terms = transferOutline(known.state)?.terms;
    if (terms?.platformId === platformId && terms.destination !== platformId && !may(principal, 'debit', await this.relations.relationOf(principal, terms.destination))) {
      throw new UnknownTransferParty(terms.destination);
    }
    const callbackUrl = await callbackUrlOf(this.runner, platformId);
    const { state } = await this.runner.run(
      streams.transfer(transferId),
      transferDecider,
      { type: 'ReverseTransfer', data: { transferId, platformId, ...(amount !== undefined ? { amount: parseEtb(amount, 'amount') } : {}), at: this.clock.now().toISOString(), callbackUrl } },
      metadata,
      known,
    );
    const after = transferOutline(state)!;
    return { transferId, reversal: after.reversals.at(-1)!, amount: after.terms.amount, reversed: after.reversed };
  }
}
