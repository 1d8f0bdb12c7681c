/** What the chaos run records on the client side and reads back from the service, as the checks see it. */

export type OperationKind =
  | 'register-merchant'
  | 'register-auditor'
  | 'link-platform'
  | 'create-account'
  | 'create-order'
  | 'create-escrow'
  | 'pay'
  | 'sandbox-complete'
  | 'release'
  | 'refund'
  | 'order-refund'
  | 'auto-release'
  | 'dispute'
  | 'resolve-dispute'
  | 'cancel'
  | 'payout-destination'
  | 'payout-settings'
  | 'payout'
  | 'reversal'
  | 'transfer'
  | 'transfer-reversal'
  | 'read';

export interface Attempt {
  requestId: string;
  /** The API it was sent to. */
  api?: string;
  /** When it was sent (epoch ms) and how long until its response was read, or the request failed. */
  sentAt?: number;
  ms?: number;
  /** Undefined when no response arrived (timeout, reset connection, a process killed mid-request). */
  status?: number;
  error?: string;
  responseText?: string;
  /** `idempotent-replayed: true`: the service answered from its record of the first attempt. */
  replayed?: boolean;
}

/**
 * One logical client action: a write keeps its Idempotency-Key across every attempt, so retries
 * after an unknown outcome must not take effect twice.
 */
export interface Operation {
  id: string;
  kind: OperationKind;
  method: string;
  path: string;
  idempotencyKey?: string;
  /** The stream the write acts on, when known before it is sent (pay, release, cancel...). */
  streamId?: string;
  /** Release: which allocation. */
  allocationMerchantId?: string;
  /** The mode of the key it was sent with (its prefix says it: sk_test_, sk_live_); none for a request without one (a customer's, an admin's). */
  mode?: 'test' | 'live';
  attempts: Attempt[];
}

export type Outcome = 'succeeded' | 'refused' | 'unknown';

/**
 * A final 2xx succeeded; a final 4xx with every earlier attempt answered was refused; anything else
 * (no response, a 5xx, a 4xx after an attempt whose outcome is unknown) may or may not have committed.
 */
export function outcomeOf(operation: Operation): Outcome {
  const last = operation.attempts[operation.attempts.length - 1];
  if (last?.status !== undefined && last.status >= 200 && last.status < 300) return 'succeeded';
  const unanswered = operation.attempts.some((a) => a.status === undefined || a.status >= 500);
  if (!unanswered && last?.status !== undefined && last.status < 500) return 'refused';
  return 'unknown';
}

/** Worth another attempt with the same Idempotency-Key: no answer, a 5xx, a 429, or the first attempt still running. */
export function retriable(attempt: Attempt): boolean {
  if (attempt.status === undefined || attempt.status >= 500 || attempt.status === 429) return true;
  if (attempt.status !== 409) return false;
  try {
    return JSON.parse(attempt.responseText ?? '')?.error?.code === 'IDEMPOTENCY_KEY_IN_USE';
  } catch {
    return false;
  }
}

export interface LoggedEvent {
  id: string;
  position: string;
  streamId: string;
  revision: string;
  type: string;
  data: Record<string, any>;
  metadata: { correlationId?: string; causationId?: string; actor?: { type?: string; id?: string } };
  /** When it was appended (ISO): the instant a credit it posts is held from. */
  recordedAt?: string;
}

export interface ReceivedCallback {
  path: string;
  deliveryId?: string;
  body: string;
  signatureValid: boolean;
  /** What the receiver answered: only `ok` (2xx) counts as delivered. */
  answer: 'ok' | 'error' | 'hang';
  /** When it arrived (epoch ms). */
  receivedAt: number;
}

/**
 * The books of the modes the run's tenants use, each read apart (the audit API never adds the two) and
 * laid side by side: test's shared accounts are named apart from live's, each party's accounts are its own.
 */
export interface LedgerSnapshot {
  modes: ('test' | 'live')[];
  balanced: boolean;
  totalDebits: number;
  totalCredits: number;
  accounts: { account: string; debit: number; credit: number; balance: number }[];
}

export interface EscrowSnapshot {
  escrowId: string;
  status: string;
  /** ETB, as the API shows each allocation: what it holds, what was released and refunded of it, what a dispute froze, its fee and the fee earned. */
  allocations: { merchantId: string; amount: number; status: string; held: number; released: number; refunded: number; frozen?: number; fee?: number; feeEarned?: number }[];
}

/** An account's balance as its platform reads it (`GET /v1/trdp/balance` with `x-account-id`), ETB: what may be paid out, and what its holding period keeps. */
export interface AccountBalanceSnapshot {
  accountId: string;
  available: number;
  onHold: number;
}

/** A payout's reconciliation report as the merchant API gives it: its amount and what each line paid of it, in ETB. */
export interface PayoutReportSnapshot {
  payoutId: string;
  amount: number;
  linesPaid: number[];
}

/** One posting on a ledger account, as the audit API's account statement gives it: the event behind it. */
export interface LedgerEntrySnapshot {
  account: string;
  eventId: string;
}

export interface IntegritySnapshot {
  ok: boolean;
  streamsChecked: number;
  eventsChecked: number;
  firstBreak: unknown;
}

export interface Secret {
  name: string;
  value: string;
  /** The operation whose response handed it out (the only response allowed to show it). */
  issuedBy?: string;
}

export interface CapturedText {
  name: string;
  text: string;
}

/** When PostgreSQL was away: connections refused from `startedAt` until `refusedUntil`, accepted again from `endedAt` (epoch ms). */
export interface OutageWindow {
  startedAt: number;
  refusedUntil: number;
  endedAt: number;
}

/** One answer (or none) of an API's `GET /health/ready`. */
export interface ReadinessSample {
  api: string;
  sentAt: number;
  answeredAt: number;
  /** Undefined when nothing answered (the API is down, or the request timed out). */
  status?: number;
}
