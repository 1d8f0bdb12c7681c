import { ApiProperty } from '@nestjs/swagger';

export class WebhookEndpointResponse {
  @ApiProperty({ example: 'we_5f1c0a9e2b7d4c8e9a0b1c2d' })
  endpointId!: string;

  @ApiProperty({ format: 'uri', example: 'https://merchant.example/webhooks/payouts' })
  url!: string;

  @ApiProperty({ type: [String], example: ['PAYOUT_PAID', 'PAYOUT_FAILED'] })
  events!: string[];

  @ApiProperty({ type: String, nullable: true, example: 'Payouts service' })
  description!: string | null;

  @ApiProperty({ example: false })
  disabled!: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

export class CreatedWebhookEndpointResponse extends WebhookEndpointResponse {
  @ApiProperty({ example: 'whsec_…', description: 'Shown once: verify the signature of every callback to this endpoint with it' })
  secret!: string;
}

export class WebhookEndpointPageResponse {
  @ApiProperty({ type: [WebhookEndpointResponse] })
  endpoints!: WebhookEndpointResponse[];

  @ApiProperty({ description: 'More follow: ask again with startingAfter set to the last endpointId' })
  hasMore!: boolean;
}

export class WebhookEndpointSecretResponse {
  @ApiProperty({ example: 'we_5f1c0a9e2b7d4c8e9a0b1c2d' })
  endpointId!: string;

  @ApiProperty({ example: 'whsec_…', description: 'Shown once: callbacks to this endpoint signed from now on use it' })
  secret!: string;
}

export class WebhookEndpointTestResponse {
  @ApiProperty({ example: 'we_5f1c0a9e2b7d4c8e9a0b1c2d' })
  endpointId!: string;

  @ApiProperty({ example: 'evt_test_8c1d…', description: 'The test event’s billRefNo; its delivery is listed by GET /v1/trdp/callbacks?orderId={endpointId}' })
  testId!: string;
}

export class DeletedWebhookEndpointResponse {
  @ApiProperty({ example: 'we_5f1c0a9e2b7d4c8e9a0b1c2d' })
  endpointId!: string;

  @ApiProperty({ enum: [true] })
  deleted!: true;
}
