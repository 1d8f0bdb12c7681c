import { createHash, createHmac, hash, randomBytes } from 'node:crypto';
import { canonicalJson } from './shared/canonical-json';
import { boundedMemo } from './shared/bounded-memo';
import { idPrefixOf } from './streams';

export const newOrderId = (): string => `${idPrefixOf('order')}${randomBytes(16).toString('hex')}`;

/**
 * An order created under an Idempotency-Key gets an id derived from the key and the request, so a
 * retry after a failure that had already written the order (its 5xx frees the key) lands on the same
 * stream instead of creating a second order; keyed by the merchant's secret salt, like escrow ids.
 */
export function orderIdFor(idSalt: string, idempotencyKey: string, requestFingerprint: string): string {
  return `${idPrefixOf('order')}${createHmac('sha256', idSalt).update(`${idempotencyKey}\n${requestFingerprint}`, 'utf8').digest('hex').slice(0, 32)}`;
}

/**
 * An escrow's id is derived from the merchant's orderId, so a retried create lands on the same
 * stream; keyed by the merchant's secret salt so ids cannot be guessed from public order numbers.
 */
export function escrowIdFor(idSalt: string, merchantOrderId: string): string {
  return `${idPrefixOf('escrow')}${createHmac('sha256', idSalt).update(merchantOrderId, 'utf8').digest('hex').slice(0, 32)}`;
}

const ACCOUNT_ID_PREFIX = 'acct_';

/**
 * An account's id: derived from the platform's reference for it when it gives one, so that the
 * reference names one account only (a second create under it lands on the same stream, which is
 * then taken) and a retried create finds its account; else from the Idempotency-Key and request, as
 * an order's; else random. Keyed by the platform's secret salt, like escrow ids.
 */
export function accountIdFor(idSalt: string, source: { reference: string } | { idempotencyKey: string; requestFingerprint: string } | undefined): string {
  if (!source) return `${ACCOUNT_ID_PREFIX}${randomBytes(16).toString('hex')}`;
  if ('reference' in source) return accountIdOfReference(idSalt, source.reference);
  return accountIdOf(idSalt, `key\n${source.idempotencyKey}\n${source.requestFingerprint}`);
}

const accountIdOf = (idSalt: string, text: string): string =>
  `${ACCOUNT_ID_PREFIX}${createHmac('sha256', idSalt).update(text, 'utf8').digest('hex').slice(0, 32)}`;

/**
 * A reference's id: a create escrow derives each payee's several times (candidates, then streams), and
 * marketplaces pay the same sellers again and again. Keyed with the salt's length first, so no other salt
 * and reference make the same key.
 */
const accountIdOfReference = boundedMemo(
  4096,
  (idSalt: string, reference: string) => `${idSalt.length}:${idSalt}${reference}`,
  (idSalt: string, reference: string) => accountIdOf(idSalt, `reference\n${reference}`),
);

/**
 * A payment attempt made under an Idempotency-Key gets an id derived from the key, so a retry after a
 * failure that had already recorded the attempt (its 5xx frees the key) finds it instead of pushing again.
 */
export function attemptIdFor(payableId: string, idempotencyKey: string): string {
  return `att_${createHash('sha256').update(`${payableId}\n${idempotencyKey}`, 'utf8').digest('hex').slice(0, 32)}`;
}

/** A test clock's id; an object attached to one names it (`testClockId`). */
export const newTestClockId = (): string => `clock_${randomBytes(12).toString('hex')}`;

const WEBHOOK_ENDPOINT_ID_PREFIX = 'we_';

/** A webhook endpoint's id; a delivery to it names it. */
export const newWebhookEndpointId = (): string => `${WEBHOOK_ENDPOINT_ID_PREFIX}${randomBytes(12).toString('hex')}`;

/** Under an Idempotency-Key, derived like an order's (orderIdFor): a retry after a failure that had created the endpoint finds it. */
export function webhookEndpointIdFor(idSalt: string, idempotencyKey: string, requestFingerprint: string): string {
  return `${WEBHOOK_ENDPOINT_ID_PREFIX}${createHmac('sha256', idSalt).update(`webhook-endpoint\n${idempotencyKey}\n${requestFingerprint}`, 'utf8').digest('hex').slice(0, 24)}`;
}

/** Payout ids, on demand or scheduled, share their prefix: a callback delivery about one links to its payout. */
const PAYOUT_ID_PREFIX = 'po_';

export const newPayoutId = (): string => `${PAYOUT_ID_PREFIX}${randomBytes(12).toString('hex')}`;

export const isPayoutId = (id: string): boolean => id.startsWith(PAYOUT_ID_PREFIX);

/**
 * A scheduled payout's id derives from its merchant and period, so however often its job runs (a
 * restart, a duplicate, a Redis that lost its queue) the period asks for one payout only, which the
 * payout account then knows.
 */
export function scheduledPayoutId(merchantId: string, periodKey: string): string {
  return `${PAYOUT_ID_PREFIX}${createHash('sha256').update(`${merchantId}\n${periodKey}`, 'utf8').digest('hex').slice(0, 24)}`;
}

/**
 * An on-demand payout asked for with an Idempotency-Key: its id derives from the merchant and the
 * key's digest, so the same request again finds the payout it made instead of making another.
 */
export function keyedPayoutId(merchantId: string, digest: string): string {
  return `${PAYOUT_ID_PREFIX}${createHash('sha256').update(`${merchantId}\nkey\n${digest}`, 'utf8').digest('hex').slice(0, 24)}`;
}

const TRANSFER_ID_PREFIX = 'tr_';

export const newTransferId = (): string => `${TRANSFER_ID_PREFIX}${randomBytes(16).toString('hex')}`;

/** A statement line's or a callback delivery's subject that is a transfer (its stream's key). */
export const isTransferId = (id: string): boolean => id.startsWith(TRANSFER_ID_PREFIX);

/**
 * A transfer made under an Idempotency-Key gets an id derived from the key and the request, as an
 * order does (orderIdFor): a retry after a failure that had written it lands on the same stream.
 */
export function transferIdFor(idSalt: string, idempotencyKey: string, requestFingerprint: string): string {
  return `${TRANSFER_ID_PREFIX}${createHmac('sha256', idSalt).update(`transfer\n${idempotencyKey}\n${requestFingerprint}`, 'utf8').digest('hex').slice(0, 32)}`;
}

/** A stable, PII-free customer reference per merchant and phone number. */
export function customerIdFor(merchantId: string, phoneE164: string): string {
  return `cus_${hash('sha256', `${merchantId}:${phoneE164}`, 'hex').slice(0, 24)}`;
}

/** A digest of a request body that ignores key order (the one-shot digest: every create and keyed request takes one). */
export function fingerprint(body: unknown): string {
  return hash('sha256', canonicalJson(body), 'hex');
}
