import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '@app/http';
import { WebhookEndpointsFeatureModule } from '@app/features/webhook-endpoints';
import { WebhookEndpointsController } from './webhook-endpoints.controller';

/** A merchant's webhook endpoints: where its callbacks also go, by type, each signed with its own secret (the deliveries are the workers'). */
@Module({
  imports: [MerchantAuthModule, WebhookEndpointsFeatureModule],
  controllers: [WebhookEndpointsController],
})
export class WebhookEndpointsModule {}
