import { timingSafeEqual } from 'node:crypto';
import type { CallbackPayload } from './callback-payload';
import { InvalidPayloadError, InvalidSignatureError, MissingHeaderError, StaleTimestampError } from './errors';
import { signCallback } from './sign-callback';

export const TIMESTAMP_HEADER = 'X-Timestamp';
export const SIGNATURE_HEADER = 'X-Signature';
/** docs/concepts/callbacks.md: ±5 minutes, wide enough for ordinary clock skew, short enough to make replays useless. */
export const DEFAULT_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * Node's `req.headers` (lower-cased keys), a hand-built object with any casing, or a WHATWG `Headers`
 * (fetch, undici, Next.js, Hono…): receivers get headers in all of these shapes.
 */
export type CallbackHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null };

export interface VerifyCallbackOptions {
  /** How far X-Timestamp may be from `now`, either way. `Infinity` turns the replay check off. */
  toleranceMs?: number;
  /** The current time in ms; for tests, and for receivers that verify queued callbacks later. */
  now?: number;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Checks that a callback was signed by the service with this webhook secret over these exact bytes,
 * recently, and returns its parsed payload; otherwise throws a {@link CallbackVerificationError}
 * whose `status` is the answer to give (the service retries any non-2xx answer).
 *
 * `rawBody` must be the bytes received, before any JSON parsing: the signature covers bytes, and a
 * parsed-then-re-serialised body only matches while both sides happen to serialise identically.
 * The signature is checked before the timestamp and the body, so a forged request is always reported
 * as such and its body is never parsed.
 *
 * @throws TypeError when called wrongly (no secret, no raw body): a configuration bug should surface
 *   as a 500 with a stack trace in the receiver's logs, not hide among 401s for forged requests.
 */
export function verifyCallback(secret: string, headers: CallbackHeaders, rawBody: string | Buffer | Uint8Array, options: VerifyCallbackOptions = {}): CallbackPayload {
  if (typeof secret !== 'string' || secret.length === 0) {
    // An empty HMAC key is valid to node:crypto, so anyone could sign callbacks a receiver accepts.
    throw new TypeError('verifyCallback: the webhook secret is empty; is WEBHOOK_SECRET set?');
  }
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new TypeError('verifyCallback: rawBody must be the raw request body (string or Buffer), not the parsed JSON; in NestJS, pass rawBody: true to NestFactory.create and use req.rawBody');
  }
  const toleranceMs = options.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  // NaN would compare false with every skew and so accept any timestamp.
  if (!(toleranceMs >= 0)) throw new TypeError('verifyCallback: toleranceMs must be a number of ms, 0 or more');
  const timestamp = readHeader(headers, TIMESTAMP_HEADER);
  if (!timestamp) throw new MissingHeaderError(TIMESTAMP_HEADER);
  const signature = readHeader(headers, SIGNATURE_HEADER);
  if (!signature) throw new MissingHeaderError(SIGNATURE_HEADER);

  // Buffer.from(x, 'hex') silently drops what is not hex, so the shape is checked first; this also
  // gives timingSafeEqual the equal lengths it needs (it throws rather than answer false otherwise).
  if (!HEX_SHA256.test(signature)) throw new InvalidSignatureError('The X-Signature is not 64 hex characters');
  const expected = Buffer.from(signCallback(secret, timestamp, rawBody), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) throw new InvalidSignatureError();

  assertFresh(timestamp, toleranceMs, options.now ?? Date.now());
  return parsePayload(rawBody);
}

function readHeader(headers: CallbackHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return headers.get(name.toLowerCase()) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== wanted) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first) return first;
  }
  return undefined;
}

/**
 * The service sends milliseconds (13 digits), but the spec leaves the unit open and its sample script
 * uses seconds (10 digits), so both are read. Only this check converts; the signature always covers
 * the header exactly as sent.
 */
function assertFresh(timestamp: string, toleranceMs: number, now: number): void {
  const sentAt = /^\d{13}$/.test(timestamp) ? Number(timestamp) : /^\d{10}$/.test(timestamp) ? Number(timestamp) * 1000 : undefined;
  if (sentAt === undefined) {
    throw new StaleTimestampError('The X-Timestamp is not a Unix time in seconds (10 digits) or milliseconds (13 digits)');
  }
  const skew = now - sentAt;
  if (Math.abs(skew) > toleranceMs) {
    const direction = skew > 0 ? 'in the past' : 'in the future';
    throw new StaleTimestampError(`The X-Timestamp is ${Math.round(Math.abs(skew) / 1000)} s ${direction}, beyond the tolerance of ${Math.round(toleranceMs / 1000)} s`);
  }
}

function parsePayload(rawBody: string | Uint8Array): CallbackPayload {
  let payload: unknown;
  try {
    payload = JSON.parse(typeof rawBody === 'string' ? rawBody : utf8.decode(rawBody));
  } catch {
    throw new InvalidPayloadError('The body is not valid UTF-8 JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new InvalidPayloadError();
  return payload as CallbackPayload;
}
