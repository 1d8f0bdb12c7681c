import type { Decider } from '@app/domain';
import type { EndpointSettings, WebhookEndpointCommand, WebhookEndpointEvent } from './webhook-endpoint.events';
import { WebhookEndpointNotFound, WebhookEventsEmpty, WebhookEventTypeUnknown } from './webhook-endpoint.errors';
import { SUBSCRIBABLE } from './webhook-event-types';

export interface WebhookEndpointState {
  endpointId?: string;
  merchantId?: string;
  settings?: EndpointSettings;
  deleted: boolean;
  createdAt?: string;
  updatedAt?: string;
}

/**
 * An endpoint as readers see it (libs/read-models' webhook endpoints view, the answers to its commands):
 * a shape published on purpose, so the decider's state may change without them.
 */
export interface WebhookEndpointOutline extends EndpointSettings {
  endpointId: string;
  merchantId: string;
  /** A deleted endpoint keeps its outline, marked. */
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Nothing before the endpoint is created. */
export function webhookEndpointOutline(state: WebhookEndpointState): WebhookEndpointOutline | undefined {
  const { endpointId, merchantId, settings, deleted, createdAt, updatedAt } = state;
  if (!endpointId || !merchantId || !settings || !createdAt || !updatedAt) return undefined;
  return { endpointId, merchantId, ...settings, deleted, createdAt, updatedAt };
}

/** The event types an endpoint subscribes to, each once, in the order given; refused when empty or naming a type we do not send. */
export function subscription(events: readonly string[]): string[] {
  if (events.length === 0) throw new WebhookEventsEmpty();
  const unknown = events.find((type) => !SUBSCRIBABLE.includes(type));
  if (unknown !== undefined) throw new WebhookEventTypeUnknown(unknown);
  return [...new Set(events)];
}

function evolve(state: WebhookEndpointState, event: WebhookEndpointEvent): WebhookEndpointState {
  switch (event.type) {
    case 'WebhookEndpointCreated': {
      const { endpointId, merchantId, url, events, description, createdAt } = event.data;
      return { endpointId, merchantId, settings: { url, events, description, disabled: false }, deleted: false, createdAt, updatedAt: createdAt };
    }
    case 'WebhookEndpointUpdated': {
      const { url, events, description, disabled, updatedAt } = event.data;
      return { ...state, settings: { url, events, description, disabled }, updatedAt };
    }
    case 'WebhookEndpointDeleted':
      return { ...state, deleted: true, updatedAt: event.data.deletedAt };
    case 'WebhookEndpointSecretRotated':
    case 'WebhookEndpointTestRequested':
      return state;
  }
}

function decide(command: WebhookEndpointCommand, state: WebhookEndpointState): WebhookEndpointEvent[] {
  if (command.type === 'CreateWebhookEndpoint') {
    const { endpointId, merchantId, url, events, description, at } = command.data;
    // Ids are made fresh for each create: a second create on the stream is a retry of the first.
    if (state.endpointId) return [];
    return [{ type: 'WebhookEndpointCreated', data: { endpointId, merchantId, url, events: subscription(events), description: description ?? null, createdAt: at } }];
  }
  const { endpointId, merchantId, settings } = state;
  if (!endpointId || !settings || state.deleted || merchantId !== command.data.merchantId) throw new WebhookEndpointNotFound(endpointId ?? 'unknown');
  const owned = { endpointId, merchantId };
  switch (command.type) {
    case 'UpdateWebhookEndpoint': {
      const { url, events, description, disabled, at } = command.data;
      const next: EndpointSettings = {
        url: url ?? settings.url,
        events: events === undefined ? settings.events : subscription(events),
        description: description === undefined ? settings.description : description,
        disabled: disabled ?? settings.disabled,
      };
      if (JSON.stringify(next) === JSON.stringify(settings)) return [];
      return [{ type: 'WebhookEndpointUpdated', data: { ...owned, ...next, updatedAt: at } }];
    }
    case 'RotateWebhookEndpointSecret':
      return [{ type: 'WebhookEndpointSecretRotated', data: { ...owned, rotatedAt: command.data.at } }];
    case 'SendWebhookEndpointTest':
      return [{ type: 'WebhookEndpointTestRequested', data: { ...owned, testId: command.data.testId, requestedAt: command.data.at } }];
    case 'DeleteWebhookEndpoint':
      return [{ type: 'WebhookEndpointDeleted', data: { ...owned, deletedAt: command.data.at } }];
  }
}

export const webhookEndpointDecider: Decider<WebhookEndpointCommand, WebhookEndpointEvent, WebhookEndpointState> = {
  initialState: () => ({ deleted: false }),
  evolve,
  decide,
};
