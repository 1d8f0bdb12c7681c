/**
 * Every way a callback can fail verification. One base class lets a receiver catch them all in one
 * place and answer with `status` without knowing each reason; `code` is stable for logs and metrics,
 * where a message may be reworded.
 */
export class CallbackVerificationError extends Error {
  constructor(
    message: string,
    /** Stable machine-readable reason, e.g. `invalid_signature`. */
    readonly code: string,
    /** The HTTP status a receiver should answer with; the sender retries any non-2xx answer. */
    readonly status: 400 | 401,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400, as the spec's sample receivers do: a request without the headers is malformed, not forged. */
export class MissingHeaderError extends CallbackVerificationError {
  constructor(readonly header: string) {
    super(`The ${header} header is missing`, 'missing_header', 400);
  }
}

/** 401: the body or timestamp was not signed with this secret (forged, altered, or the secret was rotated). */
export class InvalidSignatureError extends CallbackVerificationError {
  constructor(
    message = 'The X-Signature does not match the body and X-Timestamp. Most often the body was re-serialised (parsed, then stringified again) ' +
      'rather than verified as the raw bytes received; otherwise the secret is not the merchant’s current webhook secret (was it rotated?)',
  ) {
    super(message, 'invalid_signature', 401);
  }
}

/**
 * 401: correctly signed, but outside the tolerance window. The timestamp is signed so that a captured
 * request cannot be replayed later; a stale one is either a replay or a clock that is badly off.
 */
export class StaleTimestampError extends CallbackVerificationError {
  constructor(message: string) {
    super(message, 'stale_timestamp', 401);
  }
}

/**
 * 400: the body is checked only after its signature, so unauthenticated input is never parsed; a
 * signed body that is still not a JSON object came from a tool signing test requests, not from us.
 */
export class InvalidPayloadError extends CallbackVerificationError {
  constructor(message = 'The body is not a JSON object') {
    super(message, 'invalid_payload', 400);
  }
}
