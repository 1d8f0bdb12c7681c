import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsDisplayText } from '@app/http';

/** Why the platform closes the account: kept in the AccountClosed event, the answer's statusReason and the ACCOUNT_UPDATED callback. */
export class CloseAccountDto {
  @ApiProperty({ example: 'The seller left the marketplace', description: 'Why it is closed: the account’s statusReason from now on' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayText()
  @MaxLength(500)
  reason!: string;
}
