import { ApiProperty } from '@nestjs/swagger';

export class WebhookSecretResponse {
  @ApiProperty({ example: 'mer_01JD2', description: 'The merchant, or the seller account acted for, whose secret it is' })
  merchantId!: string;

  @ApiProperty({ description: 'What callbacks are signed with (a rotation’s: from now on); keep it secret' })
  webhookSecret!: string;
}
