import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from '../problem';
import { ProblemDto } from './problem.dto';

export type ProblemCodes = Partial<Record<number, readonly string[]>>;

const PROBLEM_MEDIA_TYPE = PROBLEM_CONTENT_TYPE.split(';')[0];

/** The statuses a client should retry later, told when: the rate limit and a dependency away (src/http/problem.ts). */
const RETRY_AFTER_STATUSES = new Set([429, 503]);
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } };

/**
 * The problem+json answer of one status: the shared Problem schema with `error.code` limited to the
 * codes this operation can answer with, so the contract test fails on a code the document lacks.
 */
export function problemResponse(status: number, given: readonly string[]) {
  const codes = [...new Set(given)];
  return {
    description: codes.join(', '),
    ...(RETRY_AFTER_STATUSES.has(status) ? { headers: RETRY_AFTER } : {}),
    content: {
      [PROBLEM_MEDIA_TYPE]: {
        schema: { allOf: [{ $ref: getSchemaPath(ProblemDto) }, { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes }, message: { type: 'string' } } } } }] },
        example: { status: 'error', timestamp: '2026-11-26T09:30:00.000Z', path: '/v1/…', message: `Refused: ${codes[0]}`, error: { code: codes[0], message: `Refused: ${codes[0]}` } },
      },
    },
  };
}

/** The statuses an operation (or every operation of a controller) refuses with, and the codes of each. */
export function ApiProblems(codes: ProblemCodes) {
  return applyDecorators(
    ApiExtraModels(ProblemDto),
    ...Object.entries(codes).map(([status, list]) => ApiResponse({ status: Number(status), ...problemResponse(Number(status), list!) })),
  );
}
