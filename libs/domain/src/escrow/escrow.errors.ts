import { DomainError } from '../shared/domain-error';

export class EscrowNotFound extends DomainError {
  constructor(escrowId: string) {
    super('ABC_001', `Escrow ${escrowId} was not found`, 'not_found');
  }
}

export class EscrowAlreadyExists extends DomainError {
  constructor(escrowId: string) {
    super('ESCROW_ALREADY_EXISTS', `Escrow ${escrowId} already exists`, 'conflict');
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

export class UnknownRefund extends DomainError {
  constructor(refundId: string) {
    super('REFUND_NOT_FOUND', `No refund ${refundId} was requested`, 'not_found');
  }
}
