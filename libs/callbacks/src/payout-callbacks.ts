import { formatEtb, type PayoutDestination, type PayoutEvent, type Santim } from '@app/domain';
import type { CallbackMessage, CallbackPayload, SourceEvent } from './callback-message';
import { amount } from './payload-fields';

/** What a payout's callback tells of it beyond its event: its amount, its destination, and the payout account's callback URL for an outcome that names none. */
interface PayoutKnown {
  record: { payoutId: string; amount: Santim };
  destination: PayoutDestination;
  accountCallbackUrl: string | null;
}

/**
 * What a payout's outcome tells, from the events of its stream: its request (or its carry-over from the
 * payout account stream, which names the destination of its version); the destination it names,
 * or (a payout of the merchant's payout account stream, from before each payout had its own) the one
 * that stream set at the request's version; and the callback URL of that stream's last settings, which
 * an outcome recorded before the settings had a stream of their own goes to. Undefined without both.
 */
function payoutKnown(history: readonly PayoutEvent[], payoutId: string): PayoutKnown | undefined {
  let requested: Extract<PayoutEvent, { type: 'PayoutRequested' }>['data'] | undefined;
  const destinations = new Map<number, PayoutDestination>();
  let accountCallbackUrl: string | null = null;
  for (const e of history) {
    if ((e.type === 'PayoutRequested' || e.type === 'PayoutCarriedOver') && e.data.payoutId === payoutId) requested = e.data;
    else if (e.type === 'PayoutDestinationSet') destinations.set(e.data.version, e.data.destination);
    else if (e.type === 'PayoutSettingsChanged') accountCallbackUrl = e.data.settings.callbackUrl;
  }
  const destination = requested && (requested.destination ?? destinations.get(requested.destinationVersion));
  return destination && { record: { payoutId, amount: requested!.amount }, destination, accountCallbackUrl };
}

/**
 * A payout's outcome, to the payout callback URL in force when it happened (the merchant's settings
 * right after the event), in the envelope of the others; the destination as the merchant may see it.
 */
function payoutOutcome(event: SourceEvent, known: PayoutKnown, deliveryId: string): CallbackMessage | undefined {
  const e = event as unknown as PayoutEvent;
  if (e.type !== 'PayoutPaid' && e.type !== 'PayoutFailed' && e.type !== 'PayoutCanceled') return undefined;
  // The outcome names the URL in force when it was recorded; one recorded before the settings had their own stream, the account's.
  const url = (e.data.callbackUrl !== undefined ? e.data.callbackUrl : known.accountCallbackUrl) ?? undefined;
  const { record, destination } = known;
  const head = (status: string, message: string) => ({
    billRefNo: record.payoutId,
    status,
    timestamp: event.recordedAt.toISOString(),
    message,
    merchantId: e.data.merchantId,
    payoutId: record.payoutId,
    amount: amount(record.amount),
    currency: 'ETB',
  });
  const tail = {
    destination: { kind: destination.kind, institution: destination.institution, holderName: destination.holderName, accountNumber: destination.accountMask },
    orderId: record.payoutId,
    deliveryId,
  };
  const payload: CallbackPayload =
    e.type === 'PayoutPaid'
      ? { ...head('PAYOUT_PAID', `${formatEtb(record.amount)} ETB was paid out to ${destination.accountMask}`), providerReference: e.data.externalReferenceId, ...tail }
      : e.type === 'PayoutCanceled'
        ? { ...head('PAYOUT_CANCELED', `The payout of ${formatEtb(record.amount)} ETB to ${destination.accountMask} was cancelled before it was sent; the money is back in your payable balance`), ...tail }
        : {
          ...head('PAYOUT_FAILED', `The payout of ${formatEtb(record.amount)} ETB to ${destination.accountMask} failed: ${e.data.reason}; the money is back in your payable balance`),
          failureReason: e.data.reason,
          ...tail,
        };
  return { merchantId: e.data.merchantId, orderId: record.payoutId, status: payload.status, url, payload, reachesPlatform: true };
}

/** A payout's outcome from its stream's history; undefined when that history does not tell its request and destination. */
export function payoutCallback(event: SourceEvent, history: readonly PayoutEvent[], deliveryId: string): CallbackMessage | undefined {
  const known = payoutKnown(history, (event.data as { payoutId: string }).payoutId);
  return known && payoutOutcome(event, known, deliveryId);
}
