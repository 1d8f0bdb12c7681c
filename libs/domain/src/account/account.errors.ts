import { DomainError } from '../shared/domain-error';

/** An account that does not exist, or belongs to another merchant: the same answer as for any other merchant's thing (ABC_001), so ids of others' accounts cannot be probed. */
export class AccountNotFound extends DomainError {
  constructor(accountId: string) {
    super('ABC_001', `Account ${accountId} was not found`, 'not_found');
  }
}

/** An update that sets the name to null: an account always has a name (the legal name its payouts are held in), so it is changed, never cleared. */
export class AccountNameRequired extends DomainError {
  constructor() {
    super('ACCOUNT_NAME_REQUIRED', 'name cannot be cleared: an account always has a name; send the new name, or leave name out to keep it', 'invalid');
  }
}

/** A second account under a reference the merchant already gave one of its accounts. */
export class AccountReferenceInUse extends DomainError {
  constructor(reference: string) {
    super('ACCOUNT_REFERENCE_IN_USE', `Another of your accounts already has the reference ${JSON.stringify(reference)}`, 'conflict');
  }
}

/** A review decision on an account that is not waiting for one (verified, or rejected, which is final). */
export class AccountNotUnderReview extends DomainError {
  constructor(accountId: string, status: string) {
    super('ACCOUNT_NOT_UNDER_REVIEW', `Account ${accountId} is ${status}: only a PENDING_VERIFICATION or RESTRICTED account is reviewed`, 'conflict');
  }
}

/** A request for information or a document for a rejected account: a rejection is final, nothing more is looked at. */
export class AccountRejectedIsFinal extends DomainError {
  constructor(accountId: string) {
    super('ACCOUNT_REJECTED_IS_FINAL', `Account ${accountId} was rejected, which is final: it takes no more requirements or documents`, 'conflict');
  }
}

/** Staff's requirements that cannot be asked: none, a kind named twice, or one due at or before the instant it is asked. */
export class AccountRequirementsInvalid extends DomainError {
  constructor(detail: string) {
    super('ACCOUNT_REQUIREMENTS_INVALID', `The requirements cannot be asked: ${detail}`, 'invalid');
  }
}

/** An approval while a business account still lacks the details its verification needs. */
export class AccountRequirementsMissing extends DomainError {
  constructor(accountId: string, missing: readonly string[]) {
    super('ACCOUNT_REQUIREMENTS_MISSING', `Account ${accountId} cannot be verified without ${missing.join(' and ')}`, 'conflict');
  }
}

/**
 * An allocation to an id the creator may not credit (libs/domain/src/authority/authority.ts): not itself,
 * one of its accounts nor a merchant linked to it. Not found, as any party the caller has no authority
 * over: the answer says nothing of whether the id is registered.
 */
export class UnknownAllocationMerchant extends DomainError {
  constructor(merchantId: string) {
    super(
      'UNKNOWN_ALLOCATION_MERCHANT',
      `An allocation names ${JSON.stringify(merchantId)}, which is neither you, one of your accounts (by accountId or reference) nor a merchant linked to you`,
      'not_found',
    );
  }
}

/** An invitation for a seller's owner when neither the request nor the account gives an e-mail to sign in with. */
export class AccountOwnerEmailRequired extends DomainError {
  constructor(accountId: string) {
    super('ACCOUNT_OWNER_EMAIL_REQUIRED', `Account ${accountId} has no e-mail: give the owner's e-mail to invite them`, 'invalid');
  }
}
