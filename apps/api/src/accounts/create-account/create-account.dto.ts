import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { IsDisplayName } from '@app/http';
import { AccountDetailsDto, given } from '@app/contract';
import { TestClockIdField } from '../../test-clocks/test-clock-id.field';

export class CreateAccountDto extends AccountDetailsDto {
  @ApiProperty({ example: 'Abebe Coffee PLC', description: 'The legal name: a payout destination must be held in it' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayName()
  @MaxLength(200)
  name!: string;

  @ApiProperty({ enum: ['individual', 'business'] })
  @IsIn(['individual', 'business'])
  type!: 'individual' | 'business';

  @ApiPropertyOptional({ example: 'seller-17', description: 'Your own id for the seller, unique among your accounts and fixed once set; an allocation may name the account by it' })
  @ValidateIf(given)
  @IsString()
  @Matches(/^[\x21-\x7e]{1,100}$/, { message: 'reference must be 1 to 100 visible ASCII characters' })
  reference?: string;

  @TestClockIdField("the account's money (its holding period, payout schedule and payouts)")
  testClockId?: string;
}
