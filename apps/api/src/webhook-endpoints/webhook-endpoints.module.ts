import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '@app/http';
import { ChangeWebhookEndpointHandler } from './change-webhook-endpoint.handler';
import { CreateWebhookEndpointHandler } from './create-webhook-endpoint.handler';
import { WebhookEndpointsController } from './webhook-endpoints.controller';

/** A merchant's webhook endpoints: where its callbacks also go, by type, each signed with its own secret (the deliveries are the workers'). */
@Module({
  imports: [MerchantAuthModule],
  controllers: [WebhookEndpointsController],
  providers: [CreateWebhookEndpointHandler, ChangeWebhookEndpointHandler],
})
export class WebhookEndpointsModule {}
