import { Module } from '@nestjs/common';
import { ChangeWebhookEndpointHandler } from './change-webhook-endpoint.handler';
import { CreateWebhookEndpointHandler } from './create-webhook-endpoint.handler';

/** The handlers of a merchant's webhook endpoints: where its callbacks also go, by type, each signed with its own secret (the deliveries are the workers'). */
@Module({ providers: [CreateWebhookEndpointHandler, ChangeWebhookEndpointHandler] })
export class WebhookEndpointsFeatureModule {}
