/** Every failure the client throws: catch this one to handle them all. */
export class EscrowLedgerError extends Error {
  override name = 'EscrowLedgerError';
}

/** No answer from the service (connection refused or reset, DNS, TLS), after the client's retries. */
export class EscrowLedgerConnectionError extends EscrowLedgerError {
  override name = 'EscrowLedgerConnectionError';

  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
  }
}

export interface ProblemAnswer {
  status: number;
  /** The problem's `error.code`: stable, what a program branches on (docs/reference/errors.md in the service's repository). */
  code: string;
  /** The problem's `error.message`: for people, may change. */
  detail: string;
  /** The request path the service saw. */
  path?: string;
  /** The service's `x-request-id`, to quote when asking about a request. */
  requestId?: string;
  /** From `Retry-After`, when the service sent one (429 and 503). */
  retryAfterMs?: number;
  /** The body as received: the problem object, or the text when it was not JSON. */
  body: unknown;
}

/** The service refused or failed a request: its error envelope, or problem details (RFC 9457) when asked for. */
export class EscrowLedgerApiError extends EscrowLedgerError implements ProblemAnswer {
  override name = 'EscrowLedgerApiError';
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly path?: string;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly body: unknown;

  constructor(answer: ProblemAnswer) {
    super(`${answer.status} ${answer.code}: ${answer.detail}`);
    this.status = answer.status;
    this.code = answer.code;
    this.detail = answer.detail;
    this.path = answer.path;
    this.requestId = answer.requestId;
    this.retryAfterMs = answer.retryAfterMs;
    this.body = answer.body;
  }
}

/** 400: the input broke a rule (a field, an amount, a date); nothing was written. */
export class BadRequestError extends EscrowLedgerApiError {
  override name = 'BadRequestError';
}

/** 401: no credential, or one the service does not know for this route. */
export class AuthenticationError extends EscrowLedgerApiError {
  override name = 'AuthenticationError';
}

/** 403: the credential is known but may not do this. */
export class PermissionDeniedError extends EscrowLedgerApiError {
  override name = 'PermissionDeniedError';
}

/** 404: no such resource for this caller. */
export class NotFoundError extends EscrowLedgerApiError {
  override name = 'NotFoundError';
}

/** 409: what the resource's state does not allow (releasing an unpaid escrow), or an Idempotency-Key used with another body. */
export class ConflictError extends EscrowLedgerApiError {
  override name = 'ConflictError';
}

/** 429: too many requests, still refused after the client's retries; `retryAfterMs` says when to try again. */
export class RateLimitError extends EscrowLedgerApiError {
  override name = 'RateLimitError';
}

/** 5xx: the service failed, still after the client's retries. */
export class ServerError extends EscrowLedgerApiError {
  override name = 'ServerError';
}

const BY_STATUS: Record<number, typeof EscrowLedgerApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

/** The exception for a problem answer: the class of its status, or EscrowLedgerApiError for the others (413, 414, 415). */
export function problemError(answer: ProblemAnswer): EscrowLedgerApiError {
  const ErrorClass = answer.status >= 500 ? ServerError : (BY_STATUS[answer.status] ?? EscrowLedgerApiError);
  return new ErrorClass(answer);
}
