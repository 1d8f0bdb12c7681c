import { Query } from '@nestjs/cqrs';
import type { MerchantEvent, MerchantEventsPage, MerchantEventsQuery } from '@app/read-models';

/** A page of an owner's events, as eventsQuery read it from the query string; a cursor that is none of the owner's events is UNKNOWN_CURSOR. */
export class ListEventsQuery extends Query<MerchantEventsPage> {
  constructor(readonly asked: MerchantEventsQuery) {
    super();
  }
}

/** One of an owner's events; another owner's, or none, is not found. */
export class GetEventQuery extends Query<MerchantEvent> {
  constructor(
    readonly ownerId: string,
    readonly eventId: string,
  ) {
    super();
  }
}
