import { createHash } from 'node:crypto';

/**
 * Chapa's `tx_ref`, ours to choose and unique per charge: the order's id and a digest of the
 * attempt's. Derived, never drawn, so a push repeated after a crash carries the same reference (and
 * Chapa, which refuses a reference used before, cannot charge twice); and a notification, which
 * carries only the `tx_ref`, names the order it is about.
 */
export function txRefFor(orderId: string, attemptId: string): string {
  return `${orderId}-${createHash('sha256').update(attemptId, 'utf8').digest('hex').slice(0, 12)}`;
}

const TX_REF = /^((?:ord|esc)_[0-9a-f]{32})-[0-9a-f]{12}$/;

/** The order a `tx_ref` of ours belongs to; undefined for a charge made some other way (a payment link on the same account). */
export function orderIdOfTxRef(txRef: string): string | undefined {
  return TX_REF.exec(txRef)?.[1];
}

/** Chapa takes Ethiopian mobile numbers in their local form, 09… or 07… (https://developer.chapa.co/integrations/inline-js). */
export function localPhone(e164: string): string {
  return e164.startsWith('+251') ? `0${e164.slice(4)}` : e164;
}

/** The refund's `reference` at Chapa, unique per request: a refund Chapa failed is asked for again under the next one. */
export function refundReferenceFor(refundId: string, attempt: number): string {
  return attempt === 1 ? refundId : `${refundId}-try-${attempt}`;
}
