import type { AccountDocument, RequirementDue } from './account-documents';
import type { AccountHoldings } from './account-closing';

export type AccountType = 'individual' | 'business';

export const ACCOUNT_STATUSES = ['PENDING_VERIFICATION', 'VERIFIED', 'REJECTED', 'RESTRICTED', 'CLOSED'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** Who decided on an account's verification: the operator's staff (console), or the sandbox's rule for test values. */
export interface VerificationDecider {
  type: 'admin' | 'auditor' | 'system';
  id: string;
}

/** What the platform tells about a seller; the legal details (name, TIN, trade licence) are what verification checks. */
export interface AccountDetails {
  name: string;
  email?: string;
  phone?: string;
  tin?: string;
  tradeLicenceNumber?: string;
  callbackUrl?: string;
  metadata?: Record<string, unknown>;
}

/** The details an account may go without: a change clears one by setting it to null. */
export type ClearableAccountDetail = Exclude<keyof AccountDetails, 'name'>;

/**
 * The details a change may set, null clearing one the account may go without (the name it always has);
 * a legal one changed or cleared on a verified account sends it back to review.
 */
export type AccountChanges = Partial<Pick<AccountDetails, 'name'>> & { [K in ClearableAccountDetail]?: AccountDetails[K] | null };

/** The values details had before a change (null: none). */
export type AccountPrevious = { [K in keyof AccountDetails]?: AccountDetails[K] | null };

/** The statuses a past-due requirement restricts, and so the ones its restriction lifts back to. */
export type LiftableStatus = Extract<AccountStatus, 'VERIFIED' | 'PENDING_VERIFICATION'>;

export const LEGAL_DETAILS = ['name', 'tin', 'tradeLicenceNumber'] as const satisfies readonly (keyof AccountDetails)[];

export type AccountEvent =
  | {
      type: 'AccountCreated';
      data: AccountDetails & {
        accountId: string;
        /** The merchant (the marketplace) that created the account and alone acts for it. */
        merchantId: string;
        type: AccountType;
        reference?: string;
        requestFingerprint: string;
        createdAt: string;
        /** The test clock its money runs on for life (its holding period, payout schedule and payouts; docs/concepts/time.md). */
        testClockId?: string;
      };
    }
  | {
      type: 'AccountUpdated';
      data: {
        accountId: string;
        merchantId: string;
        changes: AccountChanges;
        /** Each detail `changes` names, with its value before (null: it had none); absent on updates recorded before it was kept. */
        previous?: AccountPrevious;
        updatedAt: string;
      };
    }
  | { type: 'AccountVerified'; data: { accountId: string; merchantId: string; decidedBy: VerificationDecider; reason?: string; decidedAt: string } }
  | { type: 'AccountRejected'; data: { accountId: string; merchantId: string; decidedBy: VerificationDecider; reason: string; decidedAt: string } }
  /**
   * Payouts stop: a verified account whose legal details changed, until it is reviewed again; or an account
   * a requirement of whose came past its due instant without its document (`pastDue`), until it is met,
   * which lifts it back to `liftsTo` (the status it had).
   */
  | {
      type: 'AccountRestricted';
      data: { accountId: string; merchantId: string; reason: string; restrictedAt: string; pastDue?: RequirementDue[]; liftsTo?: LiftableStatus };
    }
  /** What restricted the account for past-due requirements was met (a document arrived, or staff asked anew): it has its status back. */
  | { type: 'AccountRestrictionLifted'; data: { accountId: string; merchantId: string; status: LiftableStatus; reason: string; liftedAt: string } }
  /**
   * The account's payout destination was set anew (its own stream, `payout-destination-{accountId}`, holds
   * it): recorded here too so that the platform is told (ACCOUNT_UPDATED) from the account's own stream.
   */
  | { type: 'AccountPayoutDestinationChanged'; data: { accountId: string; merchantId: string; version: number; changedAt: string } }
  /** The account's webhook secret was replaced; the secret itself never enters the log. */
  | { type: 'AccountWebhookSecretRotated'; data: { accountId: string; merchantId: string; rotatedAt: string } }
  /** The platform gave the seller's owner a dashboard invitation; the log never holds its code nor to whom it went. */
  | { type: 'AccountOwnerInvited'; data: { accountId: string; merchantId: string; invitedAt: string } }
  /** The owner spent the invitation: set a password and signed in. */
  | { type: 'AccountOwnerInvitationUsed'; data: { accountId: string; merchantId: string; usedAt: string } }
  /** The operator's staff asked for documents, each by a due instant; these replace whatever was asked before. */
  | {
      type: 'AccountInformationRequested';
      data: { accountId: string; merchantId: string; requirements: RequirementDue[]; decidedBy: VerificationDecider; reason?: string; requestedAt: string };
    }
  /**
   * A document arrived for the account: what it is and its digest, never its bytes (kept sealed outside the log).
   * `uploadedBy`: the platform (the API) or the account itself (its seller on the hosted onboarding page); uploads
   * from that page recorded before it was told apart name the platform, their metadata's actor the account.
   */
  | { type: 'AccountDocumentUploaded'; data: AccountDocument & { accountId: string; merchantId: string } }
  /** The platform closed the account, which held no money and no open allocation then: the end of it, its history kept. */
  | { type: 'AccountClosed'; data: { accountId: string; merchantId: string; closedBy: { type: 'merchant'; id: string }; reason: string; closedAt: string } };

/**
 * The sandbox's rule for test values (docs/guides/marketplaces.md): it decides at once on a TIN it
 * knows, as staff would after a review. Computed by the caller, which knows whether it runs the sandbox.
 */
export type Screening = { decision: 'VERIFIED' | 'REJECTED'; reason: string; decidedBy: VerificationDecider };

export type AccountCommand =
  | {
      type: 'CreateAccount';
      data: AccountDetails & { accountId: string; merchantId: string; type: AccountType; reference?: string; requestFingerprint: string; at: string; screening?: Screening; testClockId?: string };
    }
  | { type: 'UpdateAccount'; data: { accountId: string; merchantId: string; changes: AccountChanges; at: string; screening?: Screening } }
  | { type: 'ApproveAccount'; data: { accountId: string; decidedBy: VerificationDecider; reason?: string; at: string } }
  | { type: 'RejectAccount'; data: { accountId: string; decidedBy: VerificationDecider; reason: string; at: string } }
  | { type: 'NoteAccountPayoutDestination'; data: { accountId: string; version: number; at: string } }
  | { type: 'RotateAccountWebhookSecret'; data: { accountId: string; at: string } }
  | { type: 'InviteAccountOwner'; data: { accountId: string; merchantId: string; at: string } }
  | { type: 'RecordOwnerInvitationUsed'; data: { accountId: string; at: string } }
  | { type: 'RequestAccountInformation'; data: { accountId: string; decidedBy: VerificationDecider; requirements: RequirementDue[]; reason?: string; at: string } }
  /** The due work of a requirement's instant (the worker's, or a test clock's advance): restricts the account if one is past due at `at`. */
  | { type: 'RestrictPastDueAccount'; data: { accountId: string; at: string } }
  /** `uploadedBy`: the merchant that sends it, the account's platform or the account itself. */
  | { type: 'RecordAccountDocument'; data: { accountId: string; merchantId: string; uploadedBy: string; document: Omit<AccountDocument, 'uploadedAt' | 'uploadedBy'>; at: string } }
  /** `holdings`: what the account held as the ledger and the views stood, caught up with the log, when the command was built (account-closing.ts). */
  | { type: 'CloseAccount'; data: { accountId: string; merchantId: string; reason: string; holdings: AccountHoldings; at: string } };

/** The API's names for the details (callbackURL), as an answer and ACCOUNT_UPDATED state what a change changed from what. */
const API_NAMES: Partial<Record<keyof AccountDetails, string>> = { callbackUrl: 'callbackURL' };

export function accountApiName(detail: string): string {
  return API_NAMES[detail as keyof AccountDetails] ?? detail;
}

/** Stripe's previous_attributes of an account update: each detail it changed, by its API name, with its value before (null: none). */
export function accountPreviousAttributes(previous: AccountPrevious): Record<string, unknown> {
  return Object.fromEntries(Object.entries(previous).map(([key, value]) => [accountApiName(key), value]));
}
