import { ApiProperty, OmitType } from '@nestjs/swagger';

export class ProblemErrorDto {
  @ApiProperty({ example: 'ESCROW_NOT_FUNDED', description: 'Stable: what a client branches on (docs/reference/errors.md)' })
  code!: string;

  @ApiProperty({ example: 'The escrow is not paid yet' })
  message!: string;
}

/** The spec's error body, served as application/json unless the request asks for problem details (libs/http/src/problem.ts builds it). */
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

/**
 * RFC 9457 problem details, served as application/problem+json to a request whose Accept prefers it
 * (libs/http/src/problem.ts, problemDetails): the envelope's fields are extension members.
 */
export class ProblemDetailsDto extends OmitType(ProblemDto, ['status'] as const) {
  @ApiProperty({ example: 'urn:escrow-ledger:problem:ESCROW_NOT_FUNDED', description: 'One URI per code: `urn:escrow-ledger:problem:{code}`' })
  type!: string;

  @ApiProperty({ example: 'Conflict', description: 'The HTTP status’s reason phrase' })
  title!: string;

  @ApiProperty({ type: 'integer', example: 409, description: 'The HTTP status' })
  status!: number;

  @ApiProperty({ example: 'The escrow is not paid yet', description: 'This occurrence, for people: `error.message`' })
  detail!: string;

  @ApiProperty({ example: '/v1/trdp/escrow/esc_01J/release', description: 'The request path' })
  instance!: string;

  @ApiProperty({ example: 'ESCROW_NOT_FUNDED', description: 'Extension member: the code, as `error.code`' })
  code!: string;
}
