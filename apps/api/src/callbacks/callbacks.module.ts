import { Module } from '@nestjs/common';
import { CallbacksFeatureModule } from '@app/features/callbacks';
import { MerchantAuthModule } from '@app/http';
import { CallbacksController } from './callbacks.controller';

/** The merchant's (and its seller accounts') side of callbacks: the delivery log, redelivery and the webhook secret (the deliveries are the workers'). */
@Module({
  imports: [MerchantAuthModule, CallbacksFeatureModule],
  controllers: [CallbacksController],
})
export class CallbacksModule {}
