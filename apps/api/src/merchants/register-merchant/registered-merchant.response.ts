import { ApiProperty } from '@nestjs/swagger';

/** A merchant's secrets: this answer is the only time they are shown. */
export class RegisteredMerchantResponse {
  @ApiProperty({ example: 'mer_01JD2' })
  merchantId!: string;

  @ApiProperty({ description: 'Sent as x-api-secret' })
  apiSecret!: string;

  @ApiProperty({ description: 'Signs the callbacks' })
  webhookSecret!: string;

  @ApiProperty({ required: false, format: 'uri', description: 'Only when an email was given: where the owner sets the dashboard password (valid 7 days)' })
  invitationUrl?: string;
}
