import { ApiProperty } from '@nestjs/swagger';

export class AccountInvitationResponse {
  @ApiProperty({ example: 'acct_01JD2' })
  accountId!: string;

  @ApiProperty({ format: 'uri', description: "One-time, valid 7 days: give it to the seller's owner; it is shown only in this response" })
  invitationUrl!: string;
}
