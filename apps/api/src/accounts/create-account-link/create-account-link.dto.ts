import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, IsUrl, MaxLength } from 'class-validator';
import { LIMITS, URL_RULES } from '@app/http';

/** A link for one of the platform's accounts, and where the seller goes after it. */
export class CreateAccountLinkDto {
  @ApiProperty({ example: 'acct_5f0c1e9a2b7d4c3e8f1a6b2c9d0e7f41', description: 'One of your accounts' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  accountId!: string;

  @ApiProperty({
    example: 'https://marketplace.example/sellers/onboarded',
    description: 'Where the seller goes once it has completed the page: http(s), without credentials; a private, loopback or link-local address is refused (400 ACCOUNT_LINK_URL_REFUSED) unless the service allows them (CALLBACK_ALLOW_PRIVATE_URLS)',
  })
  @IsUrl(URL_RULES)
  @MaxLength(LIMITS.string)
  returnUrl!: string;

  @ApiProperty({
    example: 'https://marketplace.example/sellers/onboarding-link',
    description: 'Where the seller goes when the link has expired or was used already: ask for a new link there and redirect to it; the same rules as returnUrl',
  })
  @IsUrl(URL_RULES)
  @MaxLength(LIMITS.string)
  refreshUrl!: string;
}
