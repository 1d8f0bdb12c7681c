import { DomainError } from '../shared/domain-error';
import { formatEtb, type Santim } from '../shared/money';

/** A transfer whose source has less available than it moves (and no penalty that may take it below zero). */
export class InsufficientAvailableBalance extends DomainError {
  constructor(merchantId: string, available: number, amount: Santim) {
    const shown = available < 0 ? `-${formatEtb((-available) as Santim)}` : formatEtb(available as Santim);
    super('INSUFFICIENT_AVAILABLE_BALANCE', `${merchantId} has ${shown} ETB available; a transfer of ${formatEtb(amount)} ETB would take it below zero`, 'conflict');
  }
}

/** A transfer unknown, or not one of the caller's. */
export class TransferNotFound extends DomainError {
  constructor(transferId: string) {
    super('ABC_001', `Transfer ${transferId} was not found`, 'not_found');
  }
}

/** A transfer between a merchant and itself moves nothing. */
export class TransferToItself extends DomainError {
  constructor() {
    super('TRANSFER_TO_ITSELF', 'A transfer names another party than the caller in `to` or `from`', 'invalid');
  }
}

/** `allowNegative` on a transfer the platform pays: only a penalty `from` the other party may take it below zero. */
export class NegativeOnlyForPenalty extends DomainError {
  constructor() {
    super('ALLOW_NEGATIVE_ONLY_FROM', 'allowNegative applies to a transfer `from` the other party (a penalty) only', 'invalid');
  }
}

/** A reversal of a transfer all of whose money already went back. */
export class TransferFullyReversed extends DomainError {
  constructor(transferId: string) {
    super('TRANSFER_FULLY_REVERSED', `All of transfer ${transferId} was already reversed`, 'conflict');
  }
}

/** A reversal of more than the transfer moved and no reversal took back yet. */
export class TransferAmountExceedsReversible extends DomainError {
  constructor(transferId: string, reversible: Santim, amount: Santim) {
    super('TRANSFER_AMOUNT_EXCEEDS_REVERSIBLE', `${formatEtb(reversible)} ETB of transfer ${transferId} is left to reverse; ${formatEtb(amount)} ETB cannot be`, 'conflict');
  }
}

/**
 * The ledger did not reach the log's head within READ_YOUR_WRITES_TIMEOUT_MS: a balance read now could
 * miss money that already left, so nothing is decided on it (libs/payments/src/payouts/decide-at-books.ts).
 */
export class LedgerNotCurrent extends DomainError {
  constructor() {
    super('LEDGER_NOT_CURRENT', 'The ledger is catching up; retry shortly', 'unavailable');
  }
}
