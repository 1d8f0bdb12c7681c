import { fold } from '@app/domain';
import { given } from '../../../domain/src/testing/given';
import { subscription, webhookEndpointDecider } from './webhook-endpoint.decider';
import type { WebhookEndpointCommand, WebhookEndpointEvent } from './webhook-endpoint.events';
import { WebhookEndpointNotFound, WebhookEventsEmpty, WebhookEventTypeUnknown } from './webhook-endpoint.errors';
import { subscribesTo, WEBHOOK_EVENT_TYPES } from './webhook-event-types';

const AT = '2030-01-01T10:00:00.000Z';
const LATER = '2030-01-02T10:00:00.000Z';
const owned = { endpointId: 'we_1', merchantId: 'mer_1' };

const create = (events: string[] = ['PAYOUT_PAID'], description?: string): WebhookEndpointCommand => ({
  type: 'CreateWebhookEndpoint',
  data: { ...owned, url: 'https://merchant.example/payouts', events, ...(description ? { description } : {}), at: AT },
});
const created: WebhookEndpointEvent = {
  type: 'WebhookEndpointCreated',
  data: { ...owned, url: 'https://merchant.example/payouts', events: ['PAYOUT_PAID'], description: null, createdAt: AT },
};
const update = (change: Partial<{ url: string; events: string[]; description: string | null; disabled: boolean }>, merchantId = 'mer_1'): WebhookEndpointCommand => ({
  type: 'UpdateWebhookEndpoint',
  data: { merchantId, at: LATER, ...change },
});
const deleted: WebhookEndpointEvent = { type: 'WebhookEndpointDeleted', data: { ...owned, deletedAt: LATER } };

describe('webhook endpoint decider', () => {
  it('creates an endpoint with the event types it subscribes to, each once', () => {
    given(webhookEndpointDecider, []).when(create(['PAYOUT_PAID'])).then([created]);
    given(webhookEndpointDecider, [])
      .when(create(['PAID', '*', 'PAID'], 'orders'))
      .then([{ type: 'WebhookEndpointCreated', data: { ...created.data, events: ['PAID', '*'], description: 'orders' } }]);
  });

  it('refuses an endpoint subscribed to nothing, or to a type no callback has', () => {
    given(webhookEndpointDecider, []).when(create([])).thenThrows(WebhookEventsEmpty);
    given(webhookEndpointDecider, []).when(create(['PAYOUT_PAID', 'payout.paid'])).thenThrows(WebhookEventTypeUnknown);
    expect(() => subscription(['ALL'])).toThrow('"ALL" is not an event type; the types are PAID, FAILED');
  });

  it('creates once: a retry of the create appends nothing', () => {
    given(webhookEndpointDecider, [created]).when(create()).thenNothing();
  });

  it('updates what the command names and keeps the rest', () => {
    given(webhookEndpointDecider, [created])
      .when(update({ events: ['*'], disabled: true }))
      .then([{ type: 'WebhookEndpointUpdated', data: { ...owned, url: 'https://merchant.example/payouts', events: ['*'], description: null, disabled: true, updatedAt: LATER } }]);
    given(webhookEndpointDecider, [created]).when(update({ url: 'https://merchant.example/payouts', disabled: false })).thenNothing();
    given(webhookEndpointDecider, [created]).when(update({ events: [] })).thenThrows(WebhookEventsEmpty);
  });

  it('folds an update and a deletion into the endpoint', () => {
    const updated = webhookEndpointDecider.decide(update({ description: 'payouts only', disabled: true }), fold(webhookEndpointDecider, [created]));
    expect(fold(webhookEndpointDecider, [created, ...updated])).toMatchObject({ settings: { description: 'payouts only', disabled: true, events: ['PAYOUT_PAID'] }, deleted: false, updatedAt: LATER });
    expect(fold(webhookEndpointDecider, [created, deleted])).toMatchObject({ deleted: true });
  });

  it('rotates, tests and deletes the endpoint of the merchant asking', () => {
    given(webhookEndpointDecider, [created])
      .when({ type: 'RotateWebhookEndpointSecret', data: { merchantId: 'mer_1', at: LATER } })
      .then([{ type: 'WebhookEndpointSecretRotated', data: { ...owned, rotatedAt: LATER } }]);
    given(webhookEndpointDecider, [created])
      .when({ type: 'SendWebhookEndpointTest', data: { merchantId: 'mer_1', testId: 'evt_test_1', at: LATER } })
      .then([{ type: 'WebhookEndpointTestRequested', data: { ...owned, testId: 'evt_test_1', requestedAt: LATER } }]);
    given(webhookEndpointDecider, [created]).when({ type: 'DeleteWebhookEndpoint', data: { merchantId: 'mer_1', at: LATER } }).then([deleted]);
  });

  it("knows no other merchant's endpoint, a deleted one, or one never created", () => {
    given(webhookEndpointDecider, [created]).when(update({ disabled: true }, 'mer_2')).thenThrows(WebhookEndpointNotFound);
    given(webhookEndpointDecider, [created, deleted]).when(update({ disabled: true })).thenThrows(WebhookEndpointNotFound);
    given(webhookEndpointDecider, [created, deleted]).when({ type: 'DeleteWebhookEndpoint', data: { merchantId: 'mer_1', at: LATER } }).thenThrows(WebhookEndpointNotFound);
    given(webhookEndpointDecider, []).when({ type: 'RotateWebhookEndpointSecret', data: { merchantId: 'mer_1', at: LATER } }).thenThrows(WebhookEndpointNotFound);
  });

  it('subscribes `*` to every type, and a list to its own', () => {
    for (const type of WEBHOOK_EVENT_TYPES) expect(subscribesTo(['*'], type)).toBe(true);
    expect(subscribesTo(['PAYOUT_PAID'], 'PAYOUT_PAID')).toBe(true);
    expect(subscribesTo(['PAYOUT_PAID'], 'PAID')).toBe(false);
  });
});
