import { type PayoutEvent, payoutSettingsAttributes, previousAttributes } from '@app/domain';
import type { CallbackMessage, CallbackPayload, SourceEvent } from './callback-message';
import { deliveryIdFor } from './delivery-ids';

/**
 * PAYOUT_SETTINGS_UPDATED, to the merchant whose payout settings changed (its webhook endpoints and
 * events API; a seller account's platform too, as for its payouts): the settings in force after the
 * change and, on changes recorded since they are kept, what changed from what (a holding period lowered
 * is something the merchant hears of). No callbackURL: the payout settings' URL receives payouts' outcomes.
 */
export function payoutSettingsMessage(event: SourceEvent): CallbackMessage | undefined {
  const e = event as unknown as PayoutEvent;
  if (e.type === 'PayoutsPaused' || e.type === 'PayoutsResumed') return pauseMessage(event, e);
  if (e.type !== 'PayoutSettingsChanged') return undefined;
  const { merchantId, version, settings, previous } = e.data;
  const was = previous && previousAttributes({ ...settings, ...previous }, settings);
  const changed = was && Object.keys(was);
  const payload: CallbackPayload = {
    billRefNo: merchantId,
    status: 'PAYOUT_SETTINGS_UPDATED',
    timestamp: event.recordedAt.toISOString(),
    message: `Payout settings version ${version}${changed ? `: ${changed.length > 0 ? changed.join(', ') : 'nothing'} changed` : ''}`,
    merchantId,
    version,
    settings: { ...payoutSettingsAttributes(settings), currency: 'ETB' },
    ...(was ? { changed, previousAttributes: was } : {}),
    orderId: merchantId,
    deliveryId: deliveryIdFor(event.id),
  };
  return { merchantId, orderId: merchantId, status: payload.status, payload, reachesPlatform: true };
}

/** PAYOUTS_PAUSED (with its reason) and PAYOUTS_RESUMED, to whom PAYOUT_SETTINGS_UPDATED goes. */
function pauseMessage(event: SourceEvent, e: Extract<PayoutEvent, { type: 'PayoutsPaused' | 'PayoutsResumed' }>): CallbackMessage {
  const { merchantId } = e.data;
  const paused = e.type === 'PayoutsPaused';
  const payload: CallbackPayload = {
    billRefNo: merchantId,
    status: paused ? 'PAYOUTS_PAUSED' : 'PAYOUTS_RESUMED',
    timestamp: event.recordedAt.toISOString(),
    message: paused ? `Payouts are paused (${e.data.reason}): none is paid until they are resumed` : 'Payouts are resumed',
    merchantId,
    ...(paused ? { reason: e.data.reason } : {}),
    orderId: merchantId,
    deliveryId: deliveryIdFor(event.id),
  };
  return { merchantId, orderId: merchantId, status: payload.status, payload, reachesPlatform: true };
}
