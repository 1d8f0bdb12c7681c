import { Module } from '@nestjs/common';
import { EventsFeatureModule } from '@app/features/events';
import { MerchantAuthModule } from '@app/http';
import { EventsController } from './events.controller';

/** The events API: a merchant's callback-worthy events, read from the merchant_events view. */
@Module({
  imports: [MerchantAuthModule, EventsFeatureModule],
  controllers: [EventsController],
})
export class EventsModule {}
