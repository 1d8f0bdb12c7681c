import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  accountDecider,
  escrowDecider,
  fingerprint,
  may,
  newTransferId,
  orderDecider,
  parseEtb,
  type PartyRelation,
  type Principal,
  settingsOrDefault,
  streams,
  transferDecider,
  transferIdFor,
  TransferNotFound,
  transferOutline,
} from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { PartyRelations } from '@app/onboarding';
import { PayoutBooksDeps, payoutSettingsInForce, reverseAtBooks, transferAtBooks } from '@app/payments';
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
 * itself is refused as well: it would move nothing. Its id, as the transfer keeps it, and what it is to the caller.
 */
async function otherParty(
  relations: PartyRelations,
  principal: Principal,
  movement: 'credit' | 'debit',
  named: string,
  caller: { merchantId: string; idSalt: string },
): Promise<{ partyId: string; relation: PartyRelation }> {
  const { partyId, relation } = (await relations.resolve(principal, [named], caller.idSalt)).get(named)!;
  if (partyId === caller.merchantId || !may(principal, movement, relation)) throw new UnknownTransferParty(named);
  return { partyId, relation };
}

/**
 * An account party's relation as its stream says at the transfer's books, where its closing is decided
 * too (closeAtBooks): a closing decided before the transfer is read here, one decided after it sees the
 * transfer's money. Any other party's relation is not changed by a closing and stands as resolved.
 */
async function relationAtBooks(runner: CommandRunner, partyId: string, resolved: PartyRelation): Promise<PartyRelation> {
  if (resolved.kind !== 'ownAccount') return resolved;
  const { state } = await runner.read(streams.account(partyId), accountDecider);
  return { kind: 'ownAccount', status: state.account!.status };
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
    const movement = request.to !== undefined ? 'credit' : 'debit';
    const [{ partyId: party, relation }, payable] = await Promise.all([otherParty(this.relations, principal, movement, named, merchant), belongsTo(this.runner, platformId, request)]);
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
    const create = async (sourceAvailable: number) => {
      const atBooks = await relationAtBooks(this.runner, party, relation);
      // An account closed meanwhile is credited nothing, as one closed before the request (the authority rule).
      if (!may(principal, movement, atBooks)) throw new UnknownTransferParty(named);
      const sourceClosed = source === party && atBooks.kind === 'ownAccount' && atBooks.status === 'CLOSED';
      return { type: 'CreateTransfer' as const, data: { ...terms, sourceAvailable, ...(sourceClosed ? { sourceClosed } : {}), at: now.toISOString() } };
    };
    const { state, at } = await transferAtBooks(this.books, source, transferId, now, create, metadata);
    return transferView(transferOutline(state)!, { createdAt: at, updatedAt: at });
  }
}

/**
 * All or part of a transfer back the other way, decided at the books of the party it takes the money
 * back from (reverseAtBooks); that destination may go below zero, unless it is a closed account, so no
 * balance is read but a closed account's. A reversal debits the transfer's destination, which the caller
 * must still have the authority to debit (a link revoked since stops it); another's transfer, as one that
 * does not exist, is not found.
 */
@CommandHandler(ReverseTransferCommand)
export class ReverseTransferHandler implements ICommandHandler<ReverseTransferCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PayoutBooksDeps) private readonly books: PayoutBooksDeps,
    @Inject(PartyRelations) private readonly relations: PartyRelations,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, merchant, transferId, amount, metadata }: ReverseTransferCommand): Promise<TransferReversed> {
    const platformId = merchant.merchantId;
    const known = await this.runner.read(streams.transfer(transferId), transferDecider);
    const terms = transferOutline(known.state)?.terms;
    if (terms?.platformId !== platformId) throw new TransferNotFound(transferId);
    if (terms.destination !== platformId && !may(principal, 'debit', await this.relations.relationOf(principal, terms.destination))) {
      throw new UnknownTransferParty(terms.destination);
    }
    const callbackUrl = await callbackUrlOf(this.runner, platformId);
    const state = await reverseAtBooks(
      this.books,
      terms,
      { type: 'ReverseTransfer', data: { transferId, platformId, ...(amount !== undefined ? { amount: parseEtb(amount, 'amount') } : {}), at: this.clock.now().toISOString(), callbackUrl } },
      metadata,
    );
    const after = transferOutline(state)!;
    return { transferId, reversal: after.reversals.at(-1)!, amount: after.terms.amount, reversed: after.reversed };
  }
}
