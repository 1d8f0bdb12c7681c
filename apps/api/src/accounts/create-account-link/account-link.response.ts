import { ApiProperty } from '@nestjs/swagger';

/** A one-time link to the hosted onboarding page (create-account-link.controller.ts). */
export class AccountLinkResponse {
  @ApiProperty({ example: 'acct_5f0c1e9a2b7d4c3e8f1a6b2c9d0e7f41' })
  accountId!: string;

  @ApiProperty({
    format: 'uri',
    example: 'https://escrow.example/onboarding/acctlink_Yq3…',
    description: 'Redirect the seller to it at once: good once, until expiresAt; it is shown only in this response and kept only as a hash',
  })
  url!: string;

  @ApiProperty({ format: 'date-time', description: 'Ten minutes after it was made: the link opens nothing after that (the seller is sent to refreshUrl)' })
  expiresAt!: string;
}
