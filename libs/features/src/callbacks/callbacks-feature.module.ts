import { Module } from '@nestjs/common';
import { GetWebhookSecretHandler } from './get-webhook-secret/get-webhook-secret.handler';
import { ListDeliveriesHandler } from './list-deliveries/list-deliveries.handler';
import { RedeliverHandler } from './redeliver/redeliver.handler';
import { RotateWebhookSecretHandler } from './rotate-webhook-secret/rotate-webhook-secret.handler';

/** The merchant's (and its seller accounts') side of callbacks: the delivery log, redelivery and the webhook secret (the deliveries are the workers'). */
@Module({
  providers: [GetWebhookSecretHandler, ListDeliveriesHandler, RedeliverHandler, RotateWebhookSecretHandler],
})
export class CallbacksFeatureModule {}
