import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { CALLBACK_PAYLOAD_SCHEMAS, CALLBACK_TYPES } from '@app/callbacks';

/** One event of the events API: the callback's payload, as its callback carries it (events.controller.ts). */
export class MerchantEventResponse {
  @ApiProperty({
    example: 'evt_3f1c2a9b8e7d6c5b4a39281706f5e4d3',
    description:
      'Stable: the same for this event on every read, also after a rebuild of the views, and in every list it is in. A webhook endpoint’s callback of this event carries it as eventId: dedupe by it across your endpoints and this API',
  })
  id!: string;

  @ApiProperty({ enum: CALLBACK_TYPES, description: 'The callback’s status' })
  type!: string;

  @ApiProperty({ format: 'date-time', description: 'When the event was recorded (the payload’s timestamp)' })
  createdAt!: string;

  @ApiProperty({
    description: 'The body of the callback to the callbackURL this event calls for, field for field (its deliveryId and livemode too), whether or not a callbackURL was given; never eventId',
    oneOf: Object.keys(CALLBACK_PAYLOAD_SCHEMAS).map((name) => ({ $ref: getSchemaPath(name) })),
  })
  payload!: Record<string, unknown>;
}

/** A page of events; the next page starts after the last one's id. */
export class MerchantEventsPageResponse {
  @ApiProperty({ type: [MerchantEventResponse] })
  events!: MerchantEventResponse[];

  @ApiProperty({ description: 'More events follow this page (in the order asked for)' })
  hasMore!: boolean;
}
