import { DomainError } from '@app/domain';
import { SUBSCRIBABLE } from './webhook-event-types';

export class WebhookEndpointNotFound extends DomainError {
  constructor(endpointId: string) {
    super('ABC_001', `Webhook endpoint ${endpointId} was not found`, 'not_found');
  }
}

/** A webhook endpoint subscribed to no event type. */
export class WebhookEventsEmpty extends DomainError {
  constructor() {
    super('WEBHOOK_EVENTS_EMPTY', `events must name at least one event type, or "*" for all`, 'invalid');
  }
}

/** A webhook endpoint's `events` naming a type no callback has. */
export class WebhookEventTypeUnknown extends DomainError {
  constructor(type: string) {
    super('WEBHOOK_EVENT_TYPE_UNKNOWN', `${JSON.stringify(type)} is not an event type; the types are ${SUBSCRIBABLE.join(', ')}`, 'invalid');
  }
}

/** A webhook endpoint URL the callback address rules refuse (docs/reference/callbacks.md): a private, loopback or link-local address, or credentials in the URL. */
export class WebhookUrlRefused extends DomainError {
  constructor(reason: string) {
    super('WEBHOOK_URL_REFUSED', `url is refused: ${reason}`, 'invalid');
  }
}

/** A callbackURL (of an order, an escrow, an account or the payout settings) the same address rules refuse, as soon as it is set. */
export class CallbackUrlRefused extends DomainError {
  constructor(reason: string) {
    super('CALLBACK_URL_REFUSED', `callbackURL is refused: ${reason}`, 'invalid');
  }
}
