/**
 * A typed client for the escrow ledger service: a method per route with its types generated from
 * the service's OpenAPI document (src/generated, written by `npm run client:generate` in the
 * service's repository), over a runtime that adds idempotency keys, retries, pagination, seller
 * accounts and typed errors. Published for merchants, so it depends on nothing but Node (18 or later).
 */
export { ACCOUNT_HEADER, type AccountScopedLedger, type AccountScopedOperation, EscrowLedger, type EscrowLedgerOptions, IDEMPOTENCY_KEY_HEADER } from './escrow-ledger';
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  EscrowLedgerApiError,
  EscrowLedgerConnectionError,
  EscrowLedgerError,
  NotFoundError,
  PermissionDeniedError,
  type ProblemAnswer,
  RateLimitError,
  ServerError,
} from './errors';
export { type PageOf, paginate } from './paginate';
export { DEFAULT_RETRY, type RetryOptions } from './retrying-fetch';
export type * from './generated/types.gen';
// The receiver library's own sources, compiled into this package (tsconfig.build.json), so that
// one install verifies callbacks too; a path alias would survive compilation unresolved.
export {
  type CallbackHeaders,
  type CallbackPayload,
  type CallbackStatus,
  CallbackVerificationError,
  DEFAULT_TOLERANCE_MS,
  InvalidPayloadError,
  InvalidSignatureError,
  MissingHeaderError,
  SIGNATURE_HEADER,
  signCallback,
  StaleTimestampError,
  TIMESTAMP_HEADER,
  verifyCallback,
  type VerifyCallbackOptions,
} from '../../callback-receiver/src';
