import type { CallbackMessage, CallbackPayload, SourceEvent } from '../callback-message';
import type { WebhookEndpointEvent } from './webhook-endpoint.events';
import { TEST_EVENT_TYPE } from './webhook-event-types';

/** The signed test event an endpoint's merchant asked for, in the envelope of the others; the endpoint stands where an order would. */
export function testCallback(event: SourceEvent, deliveryId: string): CallbackMessage | undefined {
  const e = event as unknown as WebhookEndpointEvent;
  if (e.type !== 'WebhookEndpointTestRequested') return undefined;
  const { endpointId, merchantId, testId } = e.data;
  const payload: CallbackPayload = {
    billRefNo: testId,
    status: TEST_EVENT_TYPE,
    timestamp: event.recordedAt.toISOString(),
    message: 'A test event: your endpoint received and verified it if it answers 2xx',
    merchantId,
    endpointId,
    orderId: testId,
    deliveryId,
  };
  return { merchantId, orderId: endpointId, status: TEST_EVENT_TYPE, endpointId, testId, payload };
}
