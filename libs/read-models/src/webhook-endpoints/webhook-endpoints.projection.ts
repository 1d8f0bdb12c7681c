import { webhookEndpointDecider, type WebhookEndpointEvent, type WebhookEndpointState } from '@app/callbacks';
import { fold, streamKind } from '@app/domain';
import { foldedView } from '../folded-view.projection';

/** A webhook endpoint as its merchant reads it and the callback dispatcher addresses it; its secret is never here. */
export interface WebhookEndpointView {
  endpointId: string;
  merchantId: string;
  url: string;
  events: string[];
  description: string | null;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export function webhookEndpointView(state: WebhookEndpointState): WebhookEndpointView | undefined {
  const { endpointId, merchantId, settings, createdAt, updatedAt } = state;
  if (!endpointId || !merchantId || !settings || !createdAt || !updatedAt) return undefined;
  return { endpointId, merchantId, url: settings.url, events: settings.events, description: settings.description, disabled: settings.disabled, createdAt, updatedAt };
}

/** Each merchant's webhook endpoints; a deleted one keeps its row, marked, so a rebuild and the live view agree. */
export const webhookEndpointsView = foldedView<WebhookEndpointState>({
  name: 'webhook_endpoints_view',
  version: 1,
  table: 'webhook_endpoints_view',
  key: 'endpoint_id',
  columns: ['endpoint_id', 'merchant_id', 'deleted', 'document', 'created_at', 'updated_at', 'revision'],
  streams: (streamId) => streamKind(streamId) === 'webhookEndpoint',
  fold: (_streamId, history) => fold(webhookEndpointDecider, history as unknown as WebhookEndpointEvent[]),
  row: (_streamId, state) => {
    const view = webhookEndpointView(state);
    return view && { endpoint_id: view.endpointId, merchant_id: view.merchantId, deleted: state.deleted, document: view };
  },
});
