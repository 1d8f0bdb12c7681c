import { DomainError, InvalidInput } from '@app/domain';

/** A transfer that names neither `to` nor `from`, or both. */
export class TransferPartyMissing extends InvalidInput {
  constructor() {
    super('Name the other party in exactly one of `to` (the caller pays it) and `from` (it pays the caller)', 'TRANSFER_PARTY_REQUIRED');
  }
}

/** An `escrowId` or `orderId` of a transfer that names none of the caller's escrows or payment orders (another's, as none). */
export class UnknownTransferPayable extends DomainError {
  constructor(kind: 'escrow' | 'order', id: string) {
    super('UNKNOWN_TRANSFER_PAYABLE', `${kind === 'escrow' ? 'escrowId' : 'orderId'} ${id} is none of your ${kind === 'escrow' ? 'escrows' : 'payment orders'}: a transfer belongs to one of your own`, 'not_found');
  }
}

/** A transfer that names both an escrow and a payment order it belongs to. */
export class TransferBelongsToOne extends InvalidInput {
  constructor() {
    super('A transfer belongs to one escrow (escrowId) or one payment order (orderId), not both', 'TRANSFER_BELONGS_TO_ONE');
  }
}

/**
 * A transfer's other party the caller may not debit (`from`) or credit (`to`): not one of its accounts
 * nor a merchant linked to it (libs/domain/src/authority/authority.ts), or the caller itself. Not found,
 * as any party the caller has no authority over: the answer says nothing of whether the id is registered.
 */
export class UnknownTransferParty extends DomainError {
  constructor(party: string) {
    super('UNKNOWN_TRANSFER_PARTY', `${party} cannot be the other party of your transfer: name one of your accounts or a merchant linked to you`, 'not_found');
  }
}
