/**
 * Verifies the signed callbacks the escrow ledger service POSTs to merchants (docs/concepts/callbacks.md). Published
 * for merchants, so it depends on nothing but node:crypto and nothing else in this repository.
 */
export type { CallbackPayload, CallbackStatus } from './callback-payload';
export { CallbackVerificationError, InvalidPayloadError, InvalidSignatureError, MissingHeaderError, StaleTimestampError } from './errors';
export { signCallback } from './sign-callback';
export { type CallbackHeaders, DEFAULT_TOLERANCE_MS, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyCallback, type VerifyCallbackOptions } from './verify-callback';
