import { DomainError } from '../shared/domain-error';
import { formatEtb, type Santim } from '../shared/money';

/** A payout before a payout destination was set. */
export class PayoutDestinationMissing extends DomainError {
  constructor() {
    super('PAYOUT_DESTINATION_MISSING', 'Register a payout destination first (POST /v1/trdp/payout-destination)', 'conflict');
  }
}

/** A payout when everything released is paid out or on its way. */
export class NothingToPayOut extends DomainError {
  constructor() {
    super('NOTHING_TO_PAY_OUT', 'Nothing is available to pay out: every released birr is paid out or on its way', 'conflict');
  }
}

/** A payout of less than the `minimumAmount` of the payout settings, asked for (a scheduled one pays nothing instead). */
export class PayoutBelowMinimum extends DomainError {
  constructor(available: Santim, minimum: Santim) {
    super('PAYOUT_BELOW_MINIMUM', `${formatEtb(available)} ETB is available, below the minimum payout of ${formatEtb(minimum)} ETB`, 'conflict');
  }
}

export class PayoutNotFound extends DomainError {
  constructor(payoutId: string) {
    super('ABC_001', `Payout ${payoutId} was not found`, 'not_found');
  }
}

/** The ledger had not yet posted the merchant's earlier payouts when a payout was decided: its balance would not be what is free to pay. */
export class PayoutLedgerBehind extends DomainError {
  constructor() {
    super('PAYOUT_LEDGER_BEHIND', 'The ledger is still posting earlier payouts; retry the payout in a moment', 'conflict');
  }
}
