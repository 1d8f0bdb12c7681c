import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { IsDisplayName } from '@app/http';

/** Where the merchant's payouts go: a bank account (by the bank's code) or a mobile wallet. */
export class PayoutDestinationDto {
  @ApiProperty({ enum: ['bank', 'wallet'] })
  @IsIn(['bank', 'wallet'])
  kind!: 'bank' | 'wallet';

  @ApiProperty({ example: '946', description: "The bank's code at the provider, or the wallet (telebirr, mpesa, …)" })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,40}$/, { message: 'institution must be a bank code or a wallet name (letters, digits, - and _; at most 40)' })
  institution!: string;

  @ApiProperty({ example: '1000123456789', description: 'Kept encrypted; shown masked' })
  @IsString()
  @Matches(/^\d{6,30}$/, { message: 'accountNumber must be 6 to 30 digits' })
  accountNumber!: string;

  @ApiProperty({ example: 'Abebe Kebede', description: 'The name on the account' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayName()
  @MaxLength(200)
  holderName!: string;
}
