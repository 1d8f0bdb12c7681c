import type { AccountDocument, RequirementDue } from './account-documents';
import type { AccountChanges, AccountDetails, AccountEvent, AccountStatus, AccountType, LiftableStatus, VerificationDecider } from './account.events';

/**
 * An account as read models, callbacks and command answers read it (libs/read-models' accounts view,
 * the account routes' answers, the console's review pages): a shape published on purpose, folded
 * from the events' data alone, so the decider's state (which also keeps the creating request's
 * fingerprint, for retries) may change without them.
 */
export interface Account extends AccountDetails {
  accountId: string;
  merchantId: string;
  type: AccountType;
  reference?: string;
  createdAt: string;
  updatedAt: string;
  status: AccountStatus;
  /** Why it has its status: the reviewer's reason, or what changed on a verified account. */
  statusReason?: string;
  decidedBy?: VerificationDecider;
  decidedAt?: string;
  /** What the operator's staff asked for and not yet received, each by its due instant; absent when nothing is asked. */
  requirementsDue?: RequirementDue[];
  /** Restricted only for requirements past due: the status it gets back once they are met; absent otherwise. */
  liftsTo?: LiftableStatus;
  /** The documents uploaded for it, oldest first (what they are, never their bytes). */
  documents?: AccountDocument[];
  /** The test clock its creation attached it to, for life (docs/concepts/time.md); absent: its money runs on the real time. */
  testClockId?: string;
}

/** The account without its asked-for requirements: a decision on it settles them (and so ends a restriction they caused). */
function withoutRequirements({ requirementsDue: _settled, liftsTo: _lifted, ...account }: Account): Account {
  return account;
}

/** The account without a past-due restriction's way back: another restriction, or a lifting, replaces it. */
function withoutLift({ liftsTo: _lifted, ...account }: Account): Account {
  return account;
}

/** The account with a change's details set, and those it sets to null gone. */
function withChanges(account: Account, changes: AccountChanges): Account {
  const changed: Record<string, unknown> = { ...account, ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === null) delete changed[key];
  return changed as unknown as Account;
}

/** The account after one more of its events; undefined before its creation. */
export function accountAfter(account: Account | undefined, event: AccountEvent): Account | undefined {
  if (event.type === 'AccountCreated') {
    const { createdAt, requestFingerprint: _request, ...data } = event.data;
    return { ...data, createdAt, updatedAt: createdAt, status: 'PENDING_VERIFICATION' };
  }
  if (!account) return undefined;
  switch (event.type) {
    case 'AccountUpdated':
      return { ...withChanges(account, event.data.changes), updatedAt: event.data.updatedAt };
    case 'AccountVerified':
    case 'AccountRejected': {
      const { decidedBy, reason, decidedAt } = event.data;
      const status: AccountStatus = event.type === 'AccountVerified' ? 'VERIFIED' : 'REJECTED';
      return { ...withoutRequirements(account), status, statusReason: reason, decidedBy, decidedAt, updatedAt: decidedAt };
    }
    case 'AccountRestricted': {
      const { reason, restrictedAt, liftsTo } = event.data;
      return { ...withoutLift(account), status: 'RESTRICTED', statusReason: reason, ...(liftsTo ? { liftsTo } : {}), updatedAt: restrictedAt };
    }
    case 'AccountRestrictionLifted':
      return { ...withoutLift(account), status: event.data.status, statusReason: event.data.reason, updatedAt: event.data.liftedAt };
    case 'AccountClosed':
      return { ...withoutRequirements(account), status: 'CLOSED', statusReason: event.data.reason, updatedAt: event.data.closedAt };
    case 'AccountInformationRequested':
      return { ...account, requirementsDue: event.data.requirements, updatedAt: event.data.requestedAt };
    case 'AccountDocumentUploaded': {
      const { accountId: _a, merchantId: _m, ...document } = event.data;
      const requirementsDue = (account.requirementsDue ?? []).filter((r) => r.kind !== document.kind);
      const documents = [...(account.documents ?? []), document];
      const { requirementsDue: _asked, ...rest } = account;
      return { ...rest, ...(requirementsDue.length > 0 ? { requirementsDue } : {}), documents, updatedAt: document.uploadedAt };
    }
    // Notes of what happened around the account (its destination, its webhook secret): nothing it publishes changes.
    case 'AccountPayoutDestinationChanged':
    case 'AccountWebhookSecretRotated':
    // Who may sign in is kept beside the other credentials (merchant_logins), not in the account.
    case 'AccountOwnerInvited':
    case 'AccountOwnerInvitationUsed':
      return account;
  }
}

/** The account after its history (stored events: their type and data); undefined when it was never created. */
export const accountOf = (history: readonly AccountEvent[]): Account | undefined => history.reduce<Account | undefined>(accountAfter, undefined);
