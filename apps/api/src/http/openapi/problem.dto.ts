import { ApiProperty } from '@nestjs/swagger';

export class ProblemErrorDto {
  @ApiProperty({ example: 'ESCROW_NOT_FUNDED', description: 'Stable: what a client branches on (docs/reference/errors.md)' })
  code!: string;

  @ApiProperty({ example: 'The escrow is not paid yet' })
  message!: string;
}

/** The spec's error body, served as application/problem+json (src/http/problem.ts builds it). */
export class ProblemDto {
  @ApiProperty({ enum: ['error'] })
  status!: 'error';

  @ApiProperty({ format: 'date-time', example: '2026-11-26T09:30:00.000Z' })
  timestamp!: string;

  @ApiProperty({ example: '/v1/trdp/escrow/esc_01J/release' })
  path!: string;

  @ApiProperty({ example: 'The escrow is not paid yet' })
  message!: string;

  @ApiProperty({ type: ProblemErrorDto })
  error!: ProblemErrorDto;
}
