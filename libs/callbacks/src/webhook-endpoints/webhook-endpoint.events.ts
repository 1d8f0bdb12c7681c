import { streams } from '@app/domain';

/** What an endpoint is sent, as its merchant set it last. */
export interface EndpointSettings {
  url: string;
  /** Event types (webhook-event-types.ts), or `*` for all. */
  events: string[];
  description: string | null;
  disabled: boolean;
}

/** Its signing secret is a credential (CredentialStore): the log records only that one was issued or rotated. */
export type WebhookEndpointEvent =
  | { type: 'WebhookEndpointCreated'; data: { endpointId: string; merchantId: string; url: string; events: string[]; description: string | null; createdAt: string } }
  | { type: 'WebhookEndpointUpdated'; data: { endpointId: string; merchantId: string } & EndpointSettings & { updatedAt: string } }
  | { type: 'WebhookEndpointSecretRotated'; data: { endpointId: string; merchantId: string; rotatedAt: string } }
  /** Asks for one signed test callback to this endpoint (callback-payloads.ts plans it like any other). */
  | { type: 'WebhookEndpointTestRequested'; data: { endpointId: string; merchantId: string; testId: string; requestedAt: string } }
  | { type: 'WebhookEndpointDeleted'; data: { endpointId: string; merchantId: string; deletedAt: string } };

/** `merchantId` on every command but the first: the caller; another merchant's endpoint is, to it, one that does not exist. */
export type WebhookEndpointCommand =
  | { type: 'CreateWebhookEndpoint'; data: { endpointId: string; merchantId: string; url: string; events: string[]; description?: string | null; at: string } }
  | { type: 'UpdateWebhookEndpoint'; data: { merchantId: string; at: string } & Partial<EndpointSettings> }
  | { type: 'RotateWebhookEndpointSecret'; data: { merchantId: string; at: string } }
  | { type: 'SendWebhookEndpointTest'; data: { merchantId: string; testId: string; at: string } }
  | { type: 'DeleteWebhookEndpoint'; data: { merchantId: string; at: string } };

export const webhookEndpointStream = (endpointId: string): string => streams.webhookEndpoint(endpointId);
