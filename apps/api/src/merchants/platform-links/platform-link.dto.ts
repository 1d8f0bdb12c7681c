import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { LIMITS } from '@app/http';

/** The platform a merchant lets debit and credit it (docs/concepts/authority.md). */
export class PlatformLinkDto {
  @ApiProperty({ example: 'mer_5b1c0e4f9a2d7c3e8f6a1b0d', description: "The platform's merchant id" })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  platformId!: string;
}
