import { createHmac } from 'node:crypto';

/**
 * The signature the service puts in X-Signature: lowercase hex HMAC-SHA256, keyed with the webhook
 * secret as UTF-8, over `${timestamp}.${body}`. Exported so a merchant can sign test requests for
 * their own receiver instead of copying the scheme (and getting it subtly wrong).
 *
 * Bytes are fed to the HMAC as they are: decoding a Buffer to a string and re-encoding it would
 * silently replace invalid UTF-8, and the signature would no longer cover what was received.
 */
export function signCallback(secret: string, timestamp: string | number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}
