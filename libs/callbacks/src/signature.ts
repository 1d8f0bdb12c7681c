import { createHmac } from 'node:crypto';

/** docs/concepts/callbacks.md: lowercase hex HMAC-SHA256 with the merchant's webhook secret over `${timestamp}.${body}`. */
export function signCallbackBody(webhookSecret: string, timestamp: string, body: string): string {
  return createHmac('sha256', webhookSecret).update(`${timestamp}.${body}`).digest('hex');
}
