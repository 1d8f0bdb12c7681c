import { ApiProperty } from '@nestjs/swagger';
import { IsString, ValidateIf } from 'class-validator';
import { IsInstant } from '@app/http';

/** The new instant of the automatic release, or null for none. */
export class AutoReleaseDto {
  @ApiProperty({ example: '2030-01-20T09:00:00Z', nullable: true, type: String, description: 'In the future, at most 365 days ahead; null clears it' })
  @ValidateIf((body: AutoReleaseDto) => body.autoReleaseAt !== null)
  @IsString()
  @IsInstant()
  autoReleaseAt!: string | null;
}
