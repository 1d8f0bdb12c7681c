import { ApiProperty } from '@nestjs/swagger';

export class InvitationResponse {
  @ApiProperty({ example: 'mer_01JD2' })
  merchantId!: string;

  @ApiProperty({ format: 'uri', description: 'One-time, valid 7 days' })
  invitationUrl!: string;
}
