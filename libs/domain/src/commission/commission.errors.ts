import { DomainError } from '../shared/domain-error';

/** A commission rule with neither `percentage` nor `flat`: it would compute no fee (DELETE removes a rule). */
export class CommissionRuleEmpty extends DomainError {
  constructor() {
    super('COMMISSION_RULE_EMPTY', 'A commission needs a percentage, a flat amount or both; to have none, delete the rule', 'invalid');
  }
}

/** A commission rule whose `minimum` is more than its `maximum`. */
export class CommissionBoundsInverted extends DomainError {
  constructor(minimum: string, maximum: string) {
    super('COMMISSION_BOUNDS_INVERTED', `The commission's minimum (${minimum} ETB) is more than its maximum (${maximum} ETB)`, 'invalid');
  }
}

/** A commission `percentage` that is not a number from 0 to 100 with at most two decimals (a whole basis point). */
export class CommissionPercentageInvalid extends DomainError {
  constructor(field: string) {
    super('COMMISSION_PERCENTAGE_INVALID', `${field} must be a percent from 0 to 100 with at most 2 decimal places (10.5 is 10.5 %)`, 'invalid');
  }
}
