import { createHmac, timingSafeEqual } from 'node:crypto';

export const PROVIDER_TIMESTAMP_HEADER = 'x-provider-timestamp';
export const PROVIDER_SIGNATURE_HEADER = 'x-provider-signature';
const TOLERANCE_MS = 5 * 60 * 1000;

export function signNotification(secret: Buffer, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** True when the signature is the provider's over these exact bytes, and recent (replays are refused). */
export function verifyNotification(secret: Buffer, timestamp: string | undefined, signature: string | undefined, body: string, now = Date.now()): boolean {
  if (!timestamp || !signature || !/^\d{13}$/.test(timestamp) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  if (Math.abs(now - Number(timestamp)) > TOLERANCE_MS) return false;
  const expected = Buffer.from(signNotification(secret, timestamp, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
