import type { WebhookEndpointView } from '@app/read-models';

/** An endpoint as its merchant reads it: never its secret. */
export function presentWebhookEndpoint(endpoint: WebhookEndpointView) {
  return {
    endpointId: endpoint.endpointId,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    disabled: endpoint.disabled,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}
