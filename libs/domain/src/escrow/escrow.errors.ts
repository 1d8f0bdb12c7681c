import { DomainError } from '../shared/domain-error';

export class EscrowNotFound extends DomainError {
  constructor(escrowId: string) {
    super('ABC_001', `Escrow ${escrowId} was not found`, 'not_found');
  }
}

/** The escrow `orderId` was already used with different details. */
export class EscrowOrderConflict extends DomainError {
  constructor(orderId: string) {
    super(
      'ESCROW_ORDER_CONFLICT',
      `An escrow for orderId ${JSON.stringify(orderId)} already exists with different details; use a new orderId`,
      'conflict',
    );
  }
}

/** A release before the escrow was paid. */
export class EscrowNotFunded extends DomainError {
  constructor() {
    super('ESCROW_NOT_FUNDED', 'The escrow has not been paid yet, so there is nothing to release', 'conflict');
  }
}

/** A release or cancel of an escrow that failed or expired unpaid. */
export class EscrowClosed extends DomainError {
  constructor(status: string) {
    super('ESCROW_CLOSED', `The escrow is ${status} and was never funded`, 'conflict');
  }
}

/** A release, refund or cancel of a cancelled escrow. */
export class EscrowAlreadyCancelled extends DomainError {
  constructor() {
    super('ESCROW_ALREADY_CANCELLED', 'The escrow was cancelled', 'conflict');
  }
}

/** A cancel of an escrow whose allocations were all released. */
export class EscrowFullyReleased extends DomainError {
  constructor() {
    super('ESCROW_ALREADY_RELEASED', 'Every allocation of the escrow was released; it can no longer be cancelled', 'conflict');
  }
}

/** A cancel, dispute or move of the automatic release of an escrow that releases and refunds emptied. */
export class EscrowNothingHeld extends DomainError {
  constructor() {
    super('ESCROW_NOTHING_HELD', 'The escrow holds nothing any more: every allocation was released or refunded', 'conflict');
  }
}

/** A release of a merchantId that has no allocation in this escrow. */
export class AllocationNotFound extends DomainError {
  constructor(merchantId: string) {
    super('ALLOCATION_NOT_FOUND', `The escrow has no allocation for merchant ${merchantId}`, 'conflict');
  }
}

/** A release of an allocation released in full before. */
export class AllocationAlreadyReleased extends DomainError {
  constructor(merchantId: string) {
    super('ALLOCATION_ALREADY_RELEASED', `The allocation of merchant ${merchantId} was already released`, 'conflict');
  }
}

/** A release or refund of an allocation whose money was all refunded. */
export class AllocationNotHeld extends DomainError {
  constructor(merchantId: string) {
    super('ALLOCATION_NOT_HELD', `The allocation of merchant ${merchantId} holds nothing any more: what it held was refunded`, 'conflict');
  }
}

/** A release or refund of more than the allocation still holds. */
export class AmountExceedsHeld extends DomainError {
  constructor(merchantId: string, amount: string, held: string) {
    super('AMOUNT_EXCEEDS_HELD', `The allocation of merchant ${merchantId} holds ${held} ETB; ${amount} ETB cannot be taken from it`, 'conflict');
  }
}

/** An allocation's `fee` is more than its `amount`. */
export class FeeExceedsAmount extends DomainError {
  constructor(merchantId: string) {
    super('FEE_EXCEEDS_AMOUNT', `The fee of the allocation of merchant ${merchantId} is more than its amount`, 'invalid');
  }
}

/** The allocations do not add up to `amount` (compared in santim). */
export class AllocationSumMismatch extends DomainError {
  constructor(amount: string, sum: string) {
    super('ALLOCATION_SUM_MISMATCH', `The allocations add up to ${sum} ETB but the amount is ${amount} ETB`, 'invalid');
  }
}

/** A merchant appears in two allocations (of an escrow, or of one release). */
export class DuplicateAllocationMerchant extends DomainError {
  constructor(merchantId: string) {
    super('DUPLICATE_ALLOCATION_MERCHANT', `Merchant ${merchantId} appears in more than one allocation`, 'invalid');
  }
}

/** A release, refund, cancel or second dispute of money a dispute froze. */
export class AllocationDisputed extends DomainError {
  constructor(merchantId: string) {
    super('ALLOCATION_DISPUTED', `The allocation of merchant ${merchantId} is under dispute: nothing moves until the dispute is resolved`, 'conflict');
  }
}

/** A resolution of an allocation not in dispute (or, with no merchant named, when several are). */
export class AllocationNotDisputed extends DomainError {
  constructor(merchantId: string) {
    super('ALLOCATION_NOT_DISPUTED', `The allocation of merchant ${merchantId} is not under dispute`, 'conflict');
  }
}

/** A resolution whose `release` and `refund` do not add up to what was frozen. */
export class DisputeSplitMismatch extends DomainError {
  constructor(merchantId: string, frozen: string, split: string) {
    super('DISPUTE_SPLIT_MISMATCH', `The allocation of merchant ${merchantId} has ${frozen} ETB frozen; release and refund add up to ${split} ETB`, 'invalid');
  }
}

/** `autoReleaseAt` not after the escrow's `expiredAt`. */
export class AutoReleaseBeforeExpiry extends DomainError {
  constructor() {
    super('AUTO_RELEASE_BEFORE_EXPIRY', 'autoReleaseAt must be after the escrow expires (expiredAt): money is released only once it was paid', 'invalid');
  }
}

/** `autoReleaseAt` in the past or more than 365 days ahead. */
export class AutoReleaseNotAhead extends DomainError {
  constructor(limit: string) {
    super('AUTO_RELEASE_OUT_OF_RANGE', `autoReleaseAt must be in the future and at most 365 days ahead (${limit})`, 'invalid');
  }
}

/** Both `autoReleaseAt` and `releaseAfterDays`. */
export class AutoReleaseConflict extends DomainError {
  constructor() {
    super('AUTO_RELEASE_CONFLICT', 'Give autoReleaseAt or releaseAfterDays, not both', 'invalid');
  }
}

/** A reversal of an allocation none of whose money was released, or all of it already reversed. */
export class NothingToReverse extends DomainError {
  constructor(merchantId: string) {
    super('NOTHING_TO_REVERSE', `Nothing released to merchant ${merchantId} in this escrow is left to reverse`, 'conflict');
  }
}

/** A reversal of more than an allocation released and has not reversed yet. */
export class AmountExceedsReversible extends DomainError {
  constructor(merchantId: string, amount: string, reversible: string) {
    super('AMOUNT_EXCEEDS_REVERSIBLE', `${reversible} ETB released to merchant ${merchantId} is left to reverse; ${amount} ETB cannot be`, 'conflict');
  }
}
