import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { ENVELOPE_MEDIA_TYPE, PROBLEM_MEDIA_TYPE, PROBLEM_TYPE_PREFIX } from '../problem';
import { ProblemDetailsDto, ProblemDto } from './problem.dto';

export type ProblemCodes = Partial<Record<number, readonly string[]>>;

/** The statuses a client should retry later, told when: the rate limit and a dependency away (libs/http/src/problem.ts). */
const RETRY_AFTER_STATUSES = new Set([429, 503]);
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again', required: true, schema: { type: 'integer', minimum: 1 } } };

const EXAMPLE_PATH = '/v1/…';
const EXAMPLE_TIME = '2026-11-26T09:30:00.000Z';

/**
 * A refusal in both shapes the service answers with (libs/http/src/problem.ts, renderProblem): the envelope
 * as application/json, and RFC 9457 problem details as application/problem+json for a request whose
 * Accept prefers them. Each is the shared schema with the code limited to the codes this operation
 * can answer with, so the contract test fails on a code the document lacks.
 */
export function problemResponse(status: number, given: readonly string[]) {
  const codes = [...new Set(given)];
  const code = { type: 'string', enum: codes };
  const error = { type: 'object', properties: { code, message: { type: 'string' } } };
  const message = `Refused: ${codes[0]}`;
  const envelope = { status: 'error', timestamp: EXAMPLE_TIME, path: EXAMPLE_PATH, message, error: { code: codes[0], message } };
  return {
    description: codes.join(', '),
    ...(RETRY_AFTER_STATUSES.has(status) ? { headers: RETRY_AFTER } : {}),
    content: {
      [ENVELOPE_MEDIA_TYPE]: {
        schema: { allOf: [{ $ref: getSchemaPath(ProblemDto) }, { type: 'object', properties: { error } }] },
        example: envelope,
      },
      [PROBLEM_MEDIA_TYPE]: {
        schema: { allOf: [{ $ref: getSchemaPath(ProblemDetailsDto) }, { type: 'object', properties: { code, error } }] },
        example: {
          type: `${PROBLEM_TYPE_PREFIX}${codes[0]}`,
          title: STATUS_CODES[status] ?? 'Error',
          status,
          detail: message,
          instance: EXAMPLE_PATH,
          code: codes[0],
          timestamp: EXAMPLE_TIME,
          path: EXAMPLE_PATH,
          message,
          error: envelope.error,
        },
      },
    },
  };
}

/** The codes a refusal documented by problemResponse lists; undefined for an answer in another shape. */
export function problemCodes(response: { content?: Record<string, { schema?: any }> } | undefined): string[] | undefined {
  return response?.content?.[ENVELOPE_MEDIA_TYPE]?.schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum;
}

/** The statuses an operation (or every operation of a controller) refuses with, and the codes of each. */
export function ApiProblems(codes: ProblemCodes) {
  return applyDecorators(
    ApiExtraModels(ProblemDto, ProblemDetailsDto),
    ...Object.entries(codes).map(([status, list]) => ApiResponse({ status: Number(status), ...problemResponse(Number(status), list!) })),
  );
}
