import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** @nestjs/terminus's report, kept as it is (not the envelope): what orchestrators' probes read. */
export class HealthReportResponse {
  @ApiProperty({ enum: ['ok', 'error'] })
  status!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { eventStore: { status: 'up' } }, description: 'The checks that are up' })
  info?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The checks that are down, with why' })
  error?: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Every check' })
  details!: Record<string, unknown>;
}
