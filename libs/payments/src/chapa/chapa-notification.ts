import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidInput } from '@app/domain';
import type { ProviderNotification, ReceivedNotification } from '../payment-provider.port';
import { etbNumberOf } from './chapa-amounts';
import { orderIdOfTxRef } from './chapa-references';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const MAX_TEXT = 200;

/** Chapa's signature of a webhook: lowercase hex HMAC-SHA256 of the exact body, keyed by the secret hash. */
export function chapaSignature(webhookSecret: string, body: string): string {
  return createHmac('sha256', webhookSecret).update(body, 'utf8').digest('hex');
}

/**
 * Chapa sends `x-chapa-signature`, the HMAC of the body, and `Chapa-Signature`
 * (https://developer.chapa.co/integrations/webhooks). Only a header that signs this body is taken:
 * a value that does not depend on the body would let any body through.
 */
function signedByChapa(received: ReceivedNotification, webhookSecret: string): boolean {
  const expected = Buffer.from(chapaSignature(webhookSecret, received.body), 'utf8');
  return ['x-chapa-signature', 'chapa-signature'].some((name) => {
    const given = received.headers[name];
    return typeof given === 'string' && given.length === expected.length && timingSafeEqual(Buffer.from(given, 'utf8'), expected);
  });
}

/**
 * Chapa's webhook body (https://developer.chapa.co/integrations/webhooks) as far as the reader below
 * reads it, as a JSON Schema for the OpenAPI document. Open: Chapa sends more than these fields, and
 * whatever it adds is ignored, as is an event the reader does not act on.
 */
export const CHAPA_WEBHOOK_SCHEMA = {
  title: 'ChapaWebhook',
  type: 'object',
  description: 'Chapa’s webhook, signed with the webhook secret (x-chapa-signature or Chapa-Signature)',
  additionalProperties: true,
  properties: {
    event: { type: 'string', description: 'charge.success, charge.failed, charge.cancelled and charge.refunded are acted on; any other is ignored' },
    tx_ref: { type: 'string', maxLength: MAX_TEXT, description: 'The reference the charge was made with: names the order' },
    reference: { type: 'string', maxLength: MAX_TEXT },
    ref_id: { type: 'string', maxLength: MAX_TEXT, description: 'A refund’s own reference' },
    amount: { type: ['string', 'number'], description: 'ETB' },
    currency: { type: 'string', maxLength: MAX_TEXT },
    payment_method: { type: 'string', maxLength: MAX_TEXT },
    created_at: { type: 'string', maxLength: MAX_TEXT },
    updated_at: { type: 'string', maxLength: MAX_TEXT },
    meta: { type: 'object', additionalProperties: true, properties: { refund_id: { type: 'string', maxLength: MAX_TEXT } } },
  },
  example: { event: 'charge.success', tx_ref: 'ord_01JD2-att_01JD2', reference: 'APTRyg7tg', amount: '901.00', currency: 'ETB', payment_method: 'telebirr', created_at: '2026-11-26T09:30:00.000000Z' },
};

function text(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > MAX_TEXT) throw new InvalidInput(`notification ${name} must be a string of at most ${MAX_TEXT} characters`);
  return value;
}

/** When it happened, by Chapa's clock; a missing, unreadable or future time is taken as now (a signed report is still input). */
function occurredAt(fields: Record<string, unknown>): string {
  const stamp = text(fields, 'updated_at') ?? text(fields, 'created_at');
  const now = Date.now();
  if (!stamp || !ISO_INSTANT.test(stamp) || Number.isNaN(Date.parse(stamp)) || Date.parse(stamp) > now) return new Date(now).toISOString();
  return new Date(Date.parse(stamp)).toISOString();
}

/**
 * A Chapa webhook read into our notification. Charges report `charge.success`, `charge.failed` or
 * `charge.cancelled`, refunds `charge.refunded` with the `meta` the refund was asked with; anything
 * else (payouts, a charge that is not one of our orders) is `ignored`.
 */
export function readChapaNotification(received: ReceivedNotification, webhookSecret: string): ProviderNotification | 'ignored' | undefined {
  if (!signedByChapa(received, webhookSecret)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(received.body);
  } catch {
    throw new InvalidInput('The notification must be a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidInput('The notification must be a JSON object');
  const fields = parsed as Record<string, unknown>;
  const event = text(fields, 'event');
  const txRef = text(fields, 'tx_ref');
  const orderId = txRef === undefined ? undefined : orderIdOfTxRef(txRef);
  if (!event || !orderId) return 'ignored';
  const reference = text(fields, 'reference');
  const common = { orderId, occurredAt: occurredAt(fields) };
  switch (event) {
    case 'charge.success':
      if (!reference) throw new InvalidInput('notification reference is required');
      return {
        ...common,
        id: `${event}:${reference}`,
        type: 'payment.succeeded',
        externalReferenceId: reference,
        amount: etbNumberOf(fields.amount, 'notification amount'),
        currency: text(fields, 'currency'),
        paymentType: (text(fields, 'payment_method') ?? 'chapa').toUpperCase(),
      };
    case 'charge.failed':
    case 'charge.cancelled':
      return { ...common, id: `${event}:${reference ?? txRef}`, type: 'payment.failed', externalReferenceId: reference, reason: event === 'charge.failed' ? 'DECLINED' : 'CANCELLED' };
    case 'charge.refunded': {
      const meta = typeof fields.meta === 'object' && fields.meta !== null ? (fields.meta as Record<string, unknown>) : {};
      const refundId = text(meta, 'refund_id');
      const refundReference = text(fields, 'ref_id') ?? reference;
      if (!refundId || !refundReference) return 'ignored';
      return { ...common, id: `${event}:${refundReference}`, type: 'refund.succeeded', refundId, externalReferenceId: refundReference };
    }
    default:
      return 'ignored';
  }
}
