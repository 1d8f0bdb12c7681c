import type { Decider } from '../shared/decider';
import { AccountNotFound, AccountNotUnderReview, AccountReferenceInUse, AccountRejectedIsFinal, AccountRequirementsInvalid, AccountRequirementsMissing } from './account.errors';
import {
  type AccountChanges,
  type AccountCommand,
  type AccountDetails,
  type AccountEvent,
  type AccountStatus,
  LEGAL_DETAILS,
  type LiftableStatus,
  type Screening,
} from './account.events';
import { type Account, accountAfter } from './account.outline';
import { AccountIsClosed, AccountNotSettled, unsettledHoldings } from './account-closing';
import { legalRequirements } from './account-requirements';
import { pastDueReason, pastDueRequirements, type RequirementDue } from './account-documents';

/** The account as published, and the fingerprint of the request that created it: a retry of that request finds it. */
export interface AccountState {
  account?: Account;
  requestFingerprint?: string;
  /** The payout destination version last noted (AccountPayoutDestinationChanged): a retried note of it changes nothing. */
  destinationNoted?: number;
}

const REVIEWABLE: ReadonlySet<AccountStatus> = new Set(['PENDING_VERIFICATION', 'RESTRICTED']);

/** What a past-due requirement restricts: a rejected or closed account is paid nothing anyway, a restricted one already waits. */
const LIFTABLE: ReadonlySet<AccountStatus> = new Set<LiftableStatus>(['VERIFIED', 'PENDING_VERIFICATION']);

/** The commands a closed account refuses; notes of what already happened around it (a destination, a secret, an invitation spent) are still recorded. */
const CHANGES: ReadonlySet<AccountCommand['type']> = new Set(['UpdateAccount', 'InviteAccountOwner', 'RecordAccountDocument', 'RequestAccountInformation']);

/** The changes that differ from the account as it is: an update that repeats what is there (or clears what it has not) changes nothing. */
function effectiveChanges(account: Account, changes: AccountChanges): AccountChanges {
  const differs = (key: keyof AccountDetails) => changes[key] !== undefined && JSON.stringify(changes[key] ?? undefined) !== JSON.stringify(account[key]);
  return Object.fromEntries(Object.entries(changes).filter(([key]) => differs(key as keyof AccountDetails))) as AccountChanges;
}

/** The sandbox's decision, taken only on an account waiting for review whose legal details are complete (a verification needs them). */
function screened(account: Account, screening: Screening | undefined, at: string): AccountEvent[] {
  if (!screening || !REVIEWABLE.has(account.status) || legalRequirements(account).length > 0) return [];
  const { accountId, merchantId } = account;
  return screening.decision === 'VERIFIED'
    ? [{ type: 'AccountVerified', data: { accountId, merchantId, decidedBy: screening.decidedBy, reason: screening.reason, decidedAt: at } }]
    : [{ type: 'AccountRejected', data: { accountId, merchantId, decidedBy: screening.decidedBy, reason: screening.reason, decidedAt: at } }];
}

/** A request names each kind once, each due after the instant it is made: a requirement already past due would restrict the account before it could be met. */
function checkedRequirements(requirements: readonly RequirementDue[], at: string): RequirementDue[] {
  if (requirements.length === 0) throw new AccountRequirementsInvalid('name at least one requirement');
  const kinds = requirements.map((r) => r.kind);
  const repeated = kinds.filter((kind, i) => kinds.indexOf(kind) !== i);
  if (repeated.length > 0) throw new AccountRequirementsInvalid(`${repeated[0]} is named more than once`);
  const early = requirements.find((r) => !(Date.parse(r.dueBy) > Date.parse(at)));
  if (early) throw new AccountRequirementsInvalid(`${early.kind} is due by ${early.dueBy}, which is not after now (${at})`);
  return requirements.map(({ kind, dueBy }) => ({ kind, dueBy: new Date(dueBy).toISOString() }));
}

/** The restriction for past-due requirements lifted, once none is past due at `at` (a document met it, or staff asked anew). */
function lifted(account: Account, at: string): AccountEvent[] {
  if (!account.liftsTo || pastDueRequirements(account, new Date(at)).length > 0) return [];
  const { accountId, merchantId, liftsTo } = account;
  return [{ type: 'AccountRestrictionLifted', data: { accountId, merchantId, status: liftsTo, reason: 'the requirements past due were met', liftedAt: at } }];
}

/** The events, followed by the lifting they bring about. */
function thenLifted(state: AccountState, events: AccountEvent[], at: string): AccountEvent[] {
  return [...events, ...lifted(events.reduce(evolve, state).account!, at)];
}

function decide(command: AccountCommand, state: AccountState): AccountEvent[] {
  if (command.type === 'CreateAccount') {
    const { screening, at, ...data } = command.data;
    if (state.account) {
      // The same request again (a retry) finds its account; anything else under a used reference is refused.
      if (state.account.merchantId === data.merchantId && state.requestFingerprint === data.requestFingerprint) return [];
      throw new AccountReferenceInUse(data.reference ?? data.accountId);
    }
    const created: AccountEvent = { type: 'AccountCreated', data: { ...data, createdAt: at } };
    return [created, ...screened(evolve(state, created).account!, screening, at)];
  }
  const account = state.account;
  if (!account) throw new AccountNotFound(command.data.accountId);
  if (command.type === 'CloseAccount') {
    if (command.data.merchantId !== account.merchantId) throw new AccountNotFound(account.accountId);
    // Closing again finds it closed: a retry changes nothing.
    if (account.status === 'CLOSED') return [];
    const unsettled = unsettledHoldings(command.data.holdings);
    if (unsettled.length > 0) throw new AccountNotSettled(account.accountId, unsettled);
    const { accountId, merchantId } = account;
    return [{ type: 'AccountClosed', data: { accountId, merchantId, closedBy: { type: 'merchant', id: merchantId }, reason: command.data.reason, closedAt: command.data.at } }];
  }
  // A closed account is the end state: what would change it, ask more of it or give it an owner is refused.
  if (account.status === 'CLOSED' && CHANGES.has(command.type)) throw new AccountIsClosed(account.accountId);
  if (command.type === 'UpdateAccount') {
    if (command.data.merchantId !== account.merchantId) throw new AccountNotFound(account.accountId);
    const changes = effectiveChanges(account, command.data.changes);
    if (Object.keys(changes).length === 0) return [];
    const { accountId, merchantId } = account;
    const previous = Object.fromEntries(Object.keys(changes).map((key) => [key, account[key as keyof AccountChanges] ?? null]));
    const events: AccountEvent[] = [{ type: 'AccountUpdated', data: { accountId, merchantId, changes, previous, updatedAt: command.data.at } }];
    const legal = LEGAL_DETAILS.filter((key) => key in changes);
    // An account restricted only for a past-due requirement would get its verification back with the document: a legal change takes that away.
    if ((account.status === 'VERIFIED' || account.liftsTo === 'VERIFIED') && legal.length > 0) {
      events.push({ type: 'AccountRestricted', data: { accountId, merchantId, reason: `changed after verification: ${legal.join(', ')}`, restrictedAt: command.data.at } });
    }
    const after = events.reduce(evolve, state).account!;
    return [...events, ...screened(after, command.data.screening, command.data.at)];
  }
  if (command.type === 'NoteAccountPayoutDestination') {
    const { accountId, merchantId } = account;
    if ((state.destinationNoted ?? 0) >= command.data.version) return [];
    return [{ type: 'AccountPayoutDestinationChanged', data: { accountId, merchantId, version: command.data.version, changedAt: command.data.at } }];
  }
  if (command.type === 'RotateAccountWebhookSecret') {
    const { accountId, merchantId } = account;
    return [{ type: 'AccountWebhookSecretRotated', data: { accountId, merchantId, rotatedAt: command.data.at } }];
  }
  if (command.type === 'InviteAccountOwner') {
    if (command.data.merchantId !== account.merchantId) throw new AccountNotFound(account.accountId);
    return [{ type: 'AccountOwnerInvited', data: { accountId: account.accountId, merchantId: account.merchantId, invitedAt: command.data.at } }];
  }
  if (command.type === 'RecordOwnerInvitationUsed') {
    return [{ type: 'AccountOwnerInvitationUsed', data: { accountId: account.accountId, merchantId: account.merchantId, usedAt: command.data.at } }];
  }
  if (command.type === 'RecordAccountDocument') {
    const { accountId, merchantId } = account;
    if (command.data.merchantId !== merchantId || ![merchantId, accountId].includes(command.data.uploadedBy)) throw new AccountNotFound(accountId);
    if (account.status === 'REJECTED') throw new AccountRejectedIsFinal(accountId);
    const uploadedBy = { type: 'merchant', id: command.data.uploadedBy } as const;
    const uploaded: AccountEvent = { type: 'AccountDocumentUploaded', data: { ...command.data.document, accountId, merchantId, uploadedBy, uploadedAt: command.data.at } };
    return thenLifted(state, [uploaded], command.data.at);
  }
  if (command.type === 'RestrictPastDueAccount') {
    const { at } = command.data;
    const pastDue = pastDueRequirements(account, new Date(at));
    if (!LIFTABLE.has(account.status) || pastDue.length === 0) return [];
    const { accountId, merchantId } = account;
    const liftsTo = account.status as LiftableStatus;
    return [{ type: 'AccountRestricted', data: { accountId, merchantId, reason: pastDueReason(pastDue), restrictedAt: at, pastDue, liftsTo } }];
  }
  if (command.type === 'RequestAccountInformation') {
    // Staff may ask a verified account too (a licence renewed): only a rejection, which is final, takes no more requests.
    if (account.status === 'REJECTED') throw new AccountRejectedIsFinal(account.accountId);
    const { decidedBy, reason, at } = command.data;
    const requirements = checkedRequirements(command.data.requirements, at);
    const { accountId, merchantId } = account;
    return thenLifted(state, [{ type: 'AccountInformationRequested', data: { accountId, merchantId, requirements, decidedBy, ...(reason ? { reason } : {}), requestedAt: at } }], at);
  }
  if (!REVIEWABLE.has(account.status)) throw new AccountNotUnderReview(account.accountId, account.status);
  const { accountId, merchantId } = account;
  if (command.type === 'ApproveAccount') {
    const missing = legalRequirements(account);
    if (missing.length > 0) throw new AccountRequirementsMissing(accountId, missing);
    const { decidedBy, reason, at } = command.data;
    return [{ type: 'AccountVerified', data: { accountId, merchantId, decidedBy, ...(reason ? { reason } : {}), decidedAt: at } }];
  }
  const { decidedBy, reason, at } = command.data;
  return [{ type: 'AccountRejected', data: { accountId, merchantId, decidedBy, reason, decidedAt: at } }];
}

function evolve(state: AccountState, event: AccountEvent): AccountState {
  // The destination version noted, for a retried note; the outline publishes nothing of it.
  if (event.type === 'AccountPayoutDestinationChanged') return state.account ? { ...state, destinationNoted: event.data.version } : state;
  const account = accountAfter(state.account, event);
  if (!account) return state;
  return { ...state, account, requestFingerprint: event.type === 'AccountCreated' ? event.data.requestFingerprint : state.requestFingerprint };
}

/**
 * A platform's seller (`account-{accountId}`): its details, and its verification, which gates its
 * payouts. A legal detail changed on a verified account restricts it until it is reviewed again; a
 * requirement past its due instant restricts it until it is met; a rejection is final. The platform closes an account that holds nothing (a rejected one too):
 * closing is the end state.
 */
export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: () => ({}),
  evolve,
  decide,
};
