import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';
import type { Principal } from '@app/domain';
import type { WebhookEndpointView } from '@app/read-models';
import type { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './webhook-endpoint.dto';

/** An Idempotency-Key, and the salt of the ids it derives (request-context.ts `KeyedIdSalt`). */
export interface KeyedRequest {
  idSalt: string;
  idempotencyKey: string;
}

export class CreateWebhookEndpointCommand extends Command<{ endpoint: WebhookEndpointView; secret: string }> {
  constructor(
    /** Who calls: the endpoint is the party's it acts as (authority.ts `redirectedParty`). */
    readonly principal: Principal,
    readonly request: CreateWebhookEndpointDto,
    readonly metadata: EventMetadata,
    readonly keyed?: KeyedRequest,
  ) {
    super();
  }
}

/** What happens to one of the merchant's endpoints. */
export type EndpointChange = { type: 'update'; request: UpdateWebhookEndpointDto } | { type: 'rotate' } | { type: 'test' } | { type: 'delete' };

export interface ChangedEndpoint {
  endpoint: WebhookEndpointView;
  /** A rotation's new secret. */
  secret?: string;
  /** A test event's id. */
  testId?: string;
}

export class ChangeWebhookEndpointCommand extends Command<ChangedEndpoint> {
  constructor(
    /** Who calls: only an endpoint of the party it acts as is found (authority.ts `redirectedParty`). */
    readonly principal: Principal,
    readonly endpointId: string,
    readonly change: EndpointChange,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
