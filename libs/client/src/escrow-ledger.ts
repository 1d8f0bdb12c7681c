import { randomUUID } from 'node:crypto';
import { EscrowLedgerConnectionError, EscrowLedgerError, problemError } from './errors';
import { type Client, createClient, createConfig } from './generated/client';
import { EscrowLedgerApi } from './generated/sdk.gen';
import { type RetryOptions, retryAfterMs, retryingFetch } from './retrying-fetch';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The seller account a platform acts for (the service's sellers accounts). */
export const ACCOUNT_HEADER = 'x-account-id';

export interface EscrowLedgerOptions {
  /** Where the service answers, e.g. `https://ledger.example.com` (no `/v1`). */
  baseUrl: string;
  /** A merchant's API secret (`x-api-secret`): the merchant routes under /v1/trdp. */
  apiSecret?: string;
  /** The staff key (`x-admin-key`): registering merchants and auditors. */
  adminKey?: string;
  /** A read-only auditor key (`x-auditor-key`): the routes under /v1/audit. */
  auditorKey?: string;
  /** Act for this seller account of the platform: sent as `x-account-id` on every request (use {@link EscrowLedger.forAccount}). */
  accountId?: string;
  /** Retries on network errors, 429 and 5xx (default: 3 retries, backoff from 250 ms). */
  retry?: RetryOptions;
  /** Another fetch (a proxy agent, a test double). Default: the global fetch of Node 18 or later. */
  fetch?: typeof fetch;
  /** Headers sent on every request. */
  headers?: Record<string, string>;
}

/** The headers an operation's options take, from its generated data type. */
type HeadersOf<Method> = Method extends (options: infer Options, ...rest: never[]) => unknown ? NonNullable<NonNullable<Options> extends { headers?: infer Headers } ? Headers : never> : never;

/**
 * The operations that take `x-account-id`: those whose document states the header (the service's
 * ActingCaller routes). Every other merchant route refuses it with 400 ACCOUNT_HEADER_NOT_ACCEPTED.
 */
export type AccountScopedOperation = {
  [Name in keyof EscrowLedgerApi]: typeof ACCOUNT_HEADER extends keyof HeadersOf<EscrowLedgerApi[Name]> ? Name : never;
}[keyof EscrowLedgerApi];

/** A client acting for one seller account: only the operations that take `x-account-id`. */
export type AccountScopedLedger = Pick<EscrowLedger, AccountScopedOperation>;

/** A refusal (the envelope, or problem details) as an exception of its status's class, and no answer as a connection error. */
function toError(error: unknown, response: Response | undefined, request: Request | undefined): unknown {
  if (error instanceof EscrowLedgerError) return error;
  if (!response) {
    if (error instanceof Error && error.name === 'AbortError') return error;
    const reason = error instanceof Error ? error.message : String(error);
    return new EscrowLedgerConnectionError(`No answer from ${request ? `${request.method} ${request.url}` : 'the service'}: ${reason}`, { cause: error });
  }
  if (response.ok) return error;
  // The envelope `{status: "error", path, message, error: {code, message}}`, or RFC 9457 problem details,
  // which carry the same members (and `code`, `detail`) when a caller asks for application/problem+json.
  const problem = (typeof error === 'object' && error !== null ? error : {}) as { path?: unknown; message?: unknown; code?: unknown; detail?: unknown; error?: { code?: unknown; message?: unknown } };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return problemError({
    status: response.status,
    // An answer that is not the service's problem shape (a proxy's error page) still gets a code to branch on.
    code: text(problem.error?.code) ?? text(problem.code) ?? `HTTP_${response.status}`,
    detail: text(problem.error?.message) ?? text(problem.detail) ?? text(problem.message) ?? (typeof error === 'string' ? error : response.statusText),
    path: text(problem.path),
    requestId: response.headers.get('x-request-id') ?? undefined,
    retryAfterMs: retryAfterMs(response.headers),
    body: error,
  });
}

function ledgerClient(options: EscrowLedgerOptions): Client {
  const credentials: Record<string, string | undefined> = { 'x-api-secret': options.apiSecret, 'x-admin-key': options.adminKey, 'x-auditor-key': options.auditorKey };
  const client = createClient(
    createConfig({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: retryingFetch(options.fetch ?? ((input, init) => globalThis.fetch(input, init)), options.retry),
      auth: (auth) => (auth.name ? credentials[auth.name] : undefined),
      headers: { ...options.headers, ...(options.accountId ? { [ACCOUNT_HEADER]: options.accountId } : {}) },
      throwOnError: true,
    }),
  );
  // Once per call, before its first attempt: the retries inside the fetch resend this same request,
  // key included, so the service applies the call once (docs/concepts/idempotency.md in its repository).
  client.interceptors.request.use((request) => {
    if (request.method === 'POST' && !request.headers.has(IDEMPOTENCY_KEY_HEADER)) request.headers.set(IDEMPOTENCY_KEY_HEADER, randomUUID());
    return request;
  });
  client.interceptors.error.use((error, response, request) => toError(error, response, request));
  return client;
}

/**
 * The escrow ledger's API: one method per route, named after it (`POST /v1/trdp/escrow/order` is
 * `postEscrowOrder`), its request and answer typed from the service's OpenAPI document. A call
 * resolves to the answer's body (`{ status, message, timestamp, data }`) or throws an
 * {@link EscrowLedgerError}.
 */
export class EscrowLedger extends EscrowLedgerApi {
  // Private to the class at run time too: a client logged or inspected does not show its credentials.
  readonly #options: Readonly<EscrowLedgerOptions>;

  constructor(options: EscrowLedgerOptions) {
    super({ client: ledgerClient(options) });
    this.#options = { ...options };
  }

  /**
   * The same client acting for one of the platform's seller accounts (`x-account-id`), typed with
   * only the operations that take the header: a route that acts for the key's own merchant only
   * (an escrow, an order, a transfer by id) is called on the platform's client itself.
   */
  forAccount(accountId: string): AccountScopedLedger {
    return new EscrowLedger({ ...this.#options, accountId });
  }
}
