import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { InvalidInput } from '@app/domain';
import { type MerchantEvent, merchantEvent, type MerchantEventsPage, merchantEventsPage } from '@app/read-models';
import { GetEventQuery, ListEventsQuery } from './events.queries';
import { EventNotFound } from './events.errors';

@QueryHandler(ListEventsQuery)
export class ListEventsHandler implements IQueryHandler<ListEventsQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ asked }: ListEventsQuery): Promise<MerchantEventsPage> {
    const page = await merchantEventsPage(this.db, asked);
    if (!page) throw new InvalidInput('startingAfter must be the id of one of your events', 'UNKNOWN_CURSOR');
    return page;
  }
}

@QueryHandler(GetEventQuery)
export class GetEventHandler implements IQueryHandler<GetEventQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ ownerId, eventId }: GetEventQuery): Promise<MerchantEvent> {
    const event = await merchantEvent(this.db, ownerId, eventId);
    if (!event) throw new EventNotFound(eventId);
    return event;
  }
}
