import { ApiProperty } from '@nestjs/swagger';

/** A link between a registered merchant and a platform: the platform may debit and credit the merchant, never redirect its payouts. */
export class PlatformLinkResponse {
  @ApiProperty({ example: 'mer_0f3a6c9e2b5d8a1c4e7f0b3d', description: 'The merchant whose money the platform may move' })
  merchantId!: string;

  @ApiProperty({ example: 'mer_5b1c0e4f9a2d7c3e8f6a1b0d', description: 'The platform' })
  platformId!: string;

  @ApiProperty({ example: true, description: 'false once revoked' })
  linked!: boolean;

  @ApiProperty({ enum: ['merchant', 'operator'], example: 'merchant', description: 'Who decided the last change: the merchant with its own key, or the operator' })
  decidedBy!: 'merchant' | 'operator';

  @ApiProperty({ format: 'date-time', example: '2026-05-04T09:30:00.000Z', description: 'When the link was made, or revoked' })
  since!: string;
}

export class PlatformLinksResponse {
  @ApiProperty({ type: [PlatformLinkResponse], description: 'The platforms you let debit and credit you' })
  linkedPlatforms!: PlatformLinkResponse[];

  @ApiProperty({ type: [PlatformLinkResponse], description: 'The merchants that let you debit and credit them (you are their platform)' })
  linkedMerchants!: PlatformLinkResponse[];
}
