import { DomainError } from '../shared/domain-error';

export class EscrowNotFound extends DomainError {
  constructor(escrowId: string) {
    super('ABC_001', `Escrow ${escrowId} was not found`, 'not_found');
  }
}

export class EscrowOrderConflict extends DomainError {
  constructor(orderId: string) {
    super(
      'ESCROW_ORDER_CONFLICT',
      `An escrow for orderId ${JSON.stringify(orderId)} already exists with different details; use a new orderId`,
      'conflict',
    );
  }
}

export class EscrowNotFunded extends DomainError {
  constructor() {
    super('ESCROW_NOT_FUNDED', 'The escrow has not been paid yet, so there is nothing to release', 'conflict');
  }
}

export class EscrowClosed extends DomainError {
  constructor(status: string) {
    super('ESCROW_CLOSED', `The escrow is ${status} and was never funded`, 'conflict');
  }
}

export class EscrowAlreadyCancelled extends DomainError {
  constructor() {
    super('ESCROW_ALREADY_CANCELLED', 'The escrow was cancelled', 'conflict');
  }
}

export class EscrowFullyReleased extends DomainError {
  constructor() {
    super('ESCROW_ALREADY_RELEASED', 'Every allocation of the escrow was released; it can no longer be cancelled', 'conflict');
  }
}

export class EscrowNothingHeld extends DomainError {
  constructor() {
    super('ESCROW_NOTHING_HELD', 'The escrow holds nothing any more: every allocation was released or refunded', 'conflict');
  }
}

export class AllocationNotFound extends DomainError {
  constructor(merchantId: string) {
    super('ALLOCATION_NOT_FOUND', `The escrow has no allocation for merchant ${merchantId}`, 'conflict');
  }
}

export class AllocationAlreadyReleased extends DomainError {
  constructor(merchantId: string) {
    super('ALLOCATION_ALREADY_RELEASED', `The allocation of merchant ${merchantId} was already released`, 'conflict');
  }
}

export class AllocationNotHeld extends DomainError {
  constructor(merchantId: string) {
    super('ALLOCATION_NOT_HELD', `The allocation of merchant ${merchantId} holds nothing any more: what it held was refunded`, 'conflict');
  }
}

export class AmountExceedsHeld extends DomainError {
  constructor(merchantId: string, amount: string, held: string) {
    super('AMOUNT_EXCEEDS_HELD', `The allocation of merchant ${merchantId} holds ${held} ETB; ${amount} ETB cannot be taken from it`, 'conflict');
  }
}

export class FeeExceedsAmount extends DomainError {
  constructor(merchantId: string) {
    super('FEE_EXCEEDS_AMOUNT', `The fee of the allocation of merchant ${merchantId} is more than its amount`, 'invalid');
  }
}

export class AllocationSumMismatch extends DomainError {
  constructor(amount: string, sum: string) {
    super('ALLOCATION_SUM_MISMATCH', `The allocations add up to ${sum} ETB but the amount is ${amount} ETB`, 'invalid');
  }
}

export class DuplicateAllocationMerchant extends DomainError {
  constructor(merchantId: string) {
    super('DUPLICATE_ALLOCATION_MERCHANT', `Merchant ${merchantId} appears in more than one allocation`, 'invalid');
  }
}

export class AllocationDisputed extends DomainError {
  constructor(merchantId: string) {
    super('ALLOCATION_DISPUTED', `The allocation of merchant ${merchantId} is under dispute: nothing moves until the dispute is resolved`, 'conflict');
  }
}

export class AllocationNotDisputed extends DomainError {
  constructor(merchantId: string) {
    super('ALLOCATION_NOT_DISPUTED', `The allocation of merchant ${merchantId} is not under dispute`, 'conflict');
  }
}

export class DisputeSplitMismatch extends DomainError {
  constructor(merchantId: string, frozen: string, split: string) {
    super('DISPUTE_SPLIT_MISMATCH', `The allocation of merchant ${merchantId} has ${frozen} ETB frozen; release and refund add up to ${split} ETB`, 'invalid');
  }
}

export class AutoReleaseBeforeExpiry extends DomainError {
  constructor() {
    super('AUTO_RELEASE_BEFORE_EXPIRY', 'autoReleaseAt must be after the escrow expires (expiredAt): money is released only once it was paid', 'invalid');
  }
}

export class AutoReleaseNotAhead extends DomainError {
  constructor(limit: string) {
    super('AUTO_RELEASE_OUT_OF_RANGE', `autoReleaseAt must be in the future and at most 365 days ahead (${limit})`, 'invalid');
  }
}

export class AutoReleaseConflict extends DomainError {
  constructor() {
    super('AUTO_RELEASE_CONFLICT', 'Give autoReleaseAt or releaseAfterDays, not both', 'invalid');
  }
}
