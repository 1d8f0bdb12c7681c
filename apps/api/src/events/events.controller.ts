import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CALLBACK_TYPES, payloadInMode, withPublicBaseUrl } from '@app/callbacks';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { type ActingPrincipal, actingIdOf, INVALID_DATE_TIME } from '@app/domain';
import type { MerchantEvent } from '@app/read-models';
import { envelope, ActingCaller, KeyLivemode, ReadsProjectedViews, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { MerchantEventResponse, MerchantEventsPageResponse } from './event.response';
import { DEFAULT_PAGE_SIZE, eventsQuery, type EventsQueryString, GetEventQuery, ListEventsQuery, MAX_PAGE_SIZE } from '@app/features/events';

/**
 * The events API (docs/guides/events-api.md): every event a callback tells, listed from the
 * merchant_events view whether it was delivered or not, so a receiver that was down replays from it.
 */
@ApiTags('events')
@Controller('v1/trdp')
@MerchantApi()
@ReadsProjectedViews()
export class EventsController {
  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The payload as its callback was sent: the view keeps it without its base URL and its mode, which is the key's (an owner's events are all of its tenant's). */
  private present(event: MerchantEvent, livemode: boolean) {
    return { id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), payload: payloadInMode(withPublicBaseUrl(event.payload, this.config.publicBaseUrl), livemode) };
  }

  @Get('events')
  @ApiOperation({ summary: 'Your events (the payloads of your callbacks), newest first or oldest first, a page at a time; kept at least 30 days' })
  @ApiQuery({ name: 'type', required: false, enum: CALLBACK_TYPES, description: 'Only events of this type' })
  @ApiQuery({ name: 'createdAfter', required: false, schema: { type: 'string', format: 'date-time' }, example: '2026-11-01T00:00:00Z', description: 'Only events recorded after this instant' })
  @ApiQuery({ name: 'createdBefore', required: false, schema: { type: 'string', format: 'date-time' }, example: '2026-12-01T00:00:00Z', description: 'Only events recorded before this instant' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE } })
  @ApiQuery({ name: 'startingAfter', required: false, type: String, description: 'The id of the last event of the page before' })
  @ApiQuery({ name: 'order', required: false, schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' }, description: 'asc: oldest first (replaying); desc: newest first' })
  @ApiEnvelope(MerchantEventsPageResponse, { message: 'Events' })
  @ApiProblems({ 400: ['UNKNOWN_EVENT_TYPE', 'INVALID_LIST_ORDER', 'INVALID_PAGE_SIZE', 'REPEATED_QUERY_PARAMETER', INVALID_DATE_TIME, 'UNKNOWN_CURSOR'] })
  async list(@Query() query: EventsQueryString, @ActingCaller() principal: ActingPrincipal, @KeyLivemode() livemode: boolean) {
    const page = await this.queries.execute(new ListEventsQuery(eventsQuery(actingIdOf(principal), query)));
    return envelope('Events', { events: page.events.map((event) => this.present(event, livemode)), hasMore: page.hasMore });
  }

  @Get('events/:eventId')
  @ApiOperation({ summary: 'One of your events' })
  @ApiEnvelope(MerchantEventResponse, { message: 'Event' })
  @ApiProblems({ 404: ['ABC_001'] })
  async one(@Param('eventId') eventId: string, @ActingCaller() principal: ActingPrincipal, @KeyLivemode() livemode: boolean) {
    const event = await this.queries.execute(new GetEventQuery(actingIdOf(principal), eventId));
    return envelope('Event', this.present(event, livemode));
  }
}
