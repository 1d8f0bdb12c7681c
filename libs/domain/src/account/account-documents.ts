/** The documents a seller's verification looks at: an identity document, the TIN certificate, the trade licence. */
export const DOCUMENT_KINDS = ['identity', 'tin_certificate', 'trade_licence'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * A document as the log and the account know it: never its bytes (kept sealed beside the credentials,
 * libs/credentials' account-documents.ts), only what tells it apart and proves it unchanged.
 */
export interface AccountDocument {
  documentId: string;
  kind: DocumentKind;
  contentType: string;
  /** Bytes. */
  size: number;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
  uploadedAt: string;
  /** Who uploaded it: the account's platform (by the API) or the account itself (its seller, on the hosted onboarding page). */
  uploadedBy: { type: 'merchant'; id: string };
}

/** What the operator's staff asked the account for, and by when: past that instant its payouts stop as a restricted account's do. */
export interface RequirementDue {
  kind: DocumentKind;
  dueBy: string;
}

/** The requirements whose due instant is past at `now`: each one restricts the account's payouts until it is met. */
export function pastDueRequirements(account: { requirementsDue?: readonly RequirementDue[] }, now: Date): RequirementDue[] {
  return (account.requirementsDue ?? []).filter((requirement) => Date.parse(requirement.dueBy) <= now.getTime());
}

/** The reason a past-due requirement gives for the restriction, in words for the refusal's message. */
export function pastDueReason(pastDue: readonly RequirementDue[]): string {
  return `${pastDue.map((r) => `${r.kind} was due by ${r.dueBy}`).join(', ')} and has not arrived`;
}
