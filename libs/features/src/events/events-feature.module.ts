import { Module } from '@nestjs/common';
import { GetEventHandler, ListEventsHandler } from './events.handlers';

/** The events API's reads: a page of an owner's events and one of them, from the merchant_events view. */
@Module({ providers: [GetEventHandler, ListEventsHandler] })
export class EventsFeatureModule {}
