import { ApiProperty } from '@nestjs/swagger';

export class WebhookSecretResponse {
  @ApiProperty({ example: 'mer_01JD2' })
  merchantId!: string;

  @ApiProperty({ description: 'Shown once: callbacks signed from now on use it' })
  webhookSecret!: string;
}
