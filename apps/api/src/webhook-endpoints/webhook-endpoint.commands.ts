import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import type { WebhookEndpointView } from '@app/read-models';
import type { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './webhook-endpoint.dto';

export class CreateWebhookEndpointCommand extends Command<{ endpoint: WebhookEndpointView; secret: string }> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly request: CreateWebhookEndpointDto,
    readonly metadata: EventMetadata,
    readonly idempotencyKey?: string,
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
    readonly merchantId: string,
    readonly endpointId: string,
    readonly change: EndpointChange,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
