import { InvalidInput, parseInstant } from '@app/domain';
import { PROVIDER_SIGNATURE_HEADER, PROVIDER_TIMESTAMP_HEADER, verifyNotification } from '../notification-signature';
import type { ProviderNotification, ReceivedNotification } from '../payment-provider.port';

const TYPES: ReadonlyArray<ProviderNotification['type']> = ['payment.succeeded', 'payment.failed', 'refund.succeeded', 'refund.failed'];
/** The clock skew a signature is allowed (notification-signature.ts): a report from further ahead is not believed. */
const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;
const MAX_TEXT = 200;

/**
 * The body the sandbox's notifier signs and sends (sandbox-notifier.ts), as a JSON Schema: what the
 * OpenAPI document states for POST /v1/providers/sandbox/notifications, from the rules the reader below applies.
 */
export const SANDBOX_NOTIFICATION_SCHEMA = {
  title: 'SandboxNotification',
  type: 'object',
  description: 'The sandbox provider’s report of a payment or refund outcome, signed with its notification secret',
  required: ['id', 'type', 'orderId', 'occurredAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: MAX_TEXT, description: 'The notification’s id: a repeat is applied once' },
    type: { type: 'string', enum: [...TYPES] },
    orderId: { type: 'string', minLength: 1, maxLength: MAX_TEXT },
    attemptId: { type: 'string', minLength: 1, maxLength: MAX_TEXT },
    refundId: { type: 'string', minLength: 1, maxLength: MAX_TEXT },
    externalReferenceId: { type: 'string', minLength: 1, maxLength: MAX_TEXT },
    amount: { type: 'number', description: 'ETB' },
    currency: { type: 'string', minLength: 1, maxLength: MAX_TEXT },
    paymentType: { type: 'string', minLength: 1, maxLength: MAX_TEXT },
    reason: { type: 'string', minLength: 1, maxLength: MAX_TEXT },
    occurredAt: { type: 'string', format: 'date-time', description: 'Not more than five minutes ahead of the service’s clock' },
  },
  example: { id: 'ntf_5c1d', type: 'payment.succeeded', orderId: 'ord_01JD2', attemptId: 'att_01JD2', externalReferenceId: 'SBX-7Q2K', amount: 901, paymentType: 'TELEBIRR', occurredAt: '2026-11-26T09:30:00.000Z' },
};

function text(body: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const value = body[field];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT) {
    throw new InvalidInput(`notification ${field} must be a string of 1 to ${MAX_TEXT} characters`);
  }
  return value;
}

/**
 * A signed notification is still input: its fields become events, which are immutable. A
 * reference that is an object, or an occurredAt of `12345` (read as the year 12345, so the payment
 * "arrived" after the order expired and was refunded), would be written for good.
 */
export function readSandboxNotification(received: ReceivedNotification, secret: Buffer): ProviderNotification | undefined {
  if (!verifyNotification(secret, received.headers[PROVIDER_TIMESTAMP_HEADER], received.headers[PROVIDER_SIGNATURE_HEADER], received.body)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(received.body);
  } catch {
    throw new InvalidInput('The notification must be a JSON object');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidInput('The notification must be a JSON object');
  const fields = body as Record<string, unknown>;
  const type = fields.type as ProviderNotification['type'];
  if (!TYPES.includes(type)) throw new InvalidInput(`notification type must be one of ${TYPES.join(', ')}`);
  const occurredAt = parseInstant(fields.occurredAt, 'notification occurredAt');
  if (occurredAt.getTime() > Date.now() + FUTURE_TOLERANCE_MS) throw new InvalidInput('notification occurredAt is in the future');
  const amount = fields.amount;
  if (amount !== undefined && (typeof amount !== 'number' || !Number.isFinite(amount))) throw new InvalidInput('notification amount must be a number');
  return {
    id: text(fields, 'id', true)!,
    type,
    orderId: text(fields, 'orderId', true)!,
    attemptId: text(fields, 'attemptId', false),
    refundId: text(fields, 'refundId', false),
    externalReferenceId: text(fields, 'externalReferenceId', false),
    amount,
    paymentType: text(fields, 'paymentType', false),
    reason: text(fields, 'reason', false),
    occurredAt: fields.occurredAt as string,
  };
}
