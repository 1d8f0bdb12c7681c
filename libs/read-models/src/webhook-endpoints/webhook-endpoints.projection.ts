import { webhookEndpointDecider, type WebhookEndpointEvent, type WebhookEndpointOutline, webhookEndpointOutline } from '@app/callbacks';
import { fold, streamKind } from '@app/domain';
import { foldedView } from '../projector/folded-view.projection';

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

export function webhookEndpointView({ endpointId, merchantId, url, events, description, disabled, createdAt, updatedAt }: WebhookEndpointOutline): WebhookEndpointView {
  return { endpointId, merchantId, url, events, description, disabled, createdAt, updatedAt };
}

/** Each merchant's webhook endpoints; a deleted one keeps its row, marked, so a rebuild and the live view agree. */
export const webhookEndpointsView = foldedView<WebhookEndpointOutline | undefined>({
  name: 'webhook_endpoints_view',
  version: 1,
  table: 'webhook_endpoints_view',
  key: 'endpoint_id',
  columns: ['endpoint_id', 'merchant_id', 'deleted', 'document', 'created_at', 'updated_at', 'revision'],
  streams: (streamId) => streamKind(streamId) === 'webhookEndpoint',
  fold: (_streamId, history) => webhookEndpointOutline(fold(webhookEndpointDecider, history as unknown as WebhookEndpointEvent[])),
  row: (_streamId, endpoint) => endpoint && { endpoint_id: endpoint.endpointId, merchant_id: endpoint.merchantId, deleted: endpoint.deleted, document: webhookEndpointView(endpoint) },
});
