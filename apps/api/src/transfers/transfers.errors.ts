import { InvalidInput } from '@app/domain';

/** A transfer that names neither `to` nor `from`, or both. */
export class TransferPartyMissing extends InvalidInput {
  constructor() {
    super('Name the other party in exactly one of `to` (the caller pays it) and `from` (it pays the caller)', 'TRANSFER_PARTY_REQUIRED');
  }
}

/** A transfer's other party that may not be one (transfer-party.ts says who may). */
export class UnknownTransferParty extends InvalidInput {
  constructor(party: string) {
    super(`${party} cannot be the other party of your transfer: name a registered merchant other than yourself`, 'UNKNOWN_TRANSFER_PARTY');
  }
}
