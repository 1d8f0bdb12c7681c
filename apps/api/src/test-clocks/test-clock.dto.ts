import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, ValidateIf } from 'class-validator';
import { LIMITS, IsDisplayName, IsInstant } from '@app/http';

export class CreateTestClockDto {
  @ApiProperty({ example: '2030-01-01T06:00:00Z', description: 'The time the clock stands at: what its objects read as now until it is advanced' })
  @IsString()
  @IsInstant()
  frozenTime!: string;

  @ApiPropertyOptional({ example: 'Friday payouts', description: 'Your name for it' })
  @ValidateIf((_body: object, value: unknown) => value !== undefined)
  @IsString()
  @IsDisplayName()
  @MaxLength(LIMITS.string)
  name?: string;
}

export class AdvanceTestClockDto {
  @ApiProperty({ example: '2030-01-11T06:00:00Z', description: "The time to move the clock to: later than its own (a test clock never goes back)" })
  @IsString()
  @IsInstant()
  frozenTime!: string;
}
