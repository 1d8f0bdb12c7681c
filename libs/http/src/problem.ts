import { isConnectionError } from '@app/database';
import { DomainError } from '@app/domain';
import { HttpException } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';
/** The spec's envelope is what its integrators parse: every refusal not negotiated otherwise is plain JSON. */
export const ENVELOPE_MEDIA_TYPE = 'application/json';

/**
 * A problem's `type` (RFC 9457 §3.1.1): one URI per code, never resolved by a client, only compared;
 * docs/reference/errors.md has an entry per code under the same name.
 */
export const PROBLEM_TYPE_PREFIX = 'urn:escrow-ledger:problem:';

/** The spec's error body: the envelope every refusal has, unless the request asks for problem details. */
export interface Problem {
  status: 'error';
  timestamp: string;
  path: string;
  message: string;
  error: { code: string; message: string };
}

/**
 * RFC 9457 problem details, for a request whose Accept prefers application/problem+json. The envelope's
 * fields stay as extension members (its `status` is the HTTP status here), so a reader of either shape
 * finds what it reads.
 */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  timestamp: string;
  path: string;
  message: string;
  error: { code: string; message: string };
}

export interface ProblemResponse {
  statusCode: number;
  body: Problem;
  headers?: Record<string, string>;
  /** Unexpected: worth a log line with the cause. */
  unexpected: boolean;
}

/** The code of each status the framework refuses with; docs/reference/errors.md is generated from these comments. */
const CODE_BY_STATUS: Record<number, string> = {
  /** Invalid or missing fields, malformed JSON (the message says where it broke), a body that is not a JSON object. */
  400: 'BadRequestException',
  /** A missing or invalid key for the route: `x-api-secret`, `x-admin-key`, `x-auditor-key`, or a provider's signature. */
  401: 'AUTH_001',
  /** A request the framework refuses as forbidden. */
  403: 'FORBIDDEN',
  /** No such route, or nothing of this merchant under this id (another merchant's things are not found either). */
  404: 'ABC_001',
  /** A method the route does not take. */
  405: 'METHOD_NOT_ALLOWED',
  /** A state conflict without a code of its own. */
  409: 'CONFLICT',
  /** A body over 256 KiB. */
  413: 'PAYLOAD_TOO_LARGE',
  /** A path parameter over 100 characters. */
  414: 'URI_TOO_LONG',
  /** A body that is not `application/json`. */
  415: 'UNSUPPORTED_MEDIA_TYPE',
  /** More requests in a minute than `RATE_LIMIT_PER_MINUTE` allows the API key (all routes together), or the client address without a valid key; `Retry-After` says when to try again. */
  429: 'RATE_LIMITED',
  /** An unexpected error, logged on the server; no internals in the response. */
  500: 'GEN_004',
  /** A dependency is not available; retry after `Retry-After`. */
  503: 'SERVICE_UNAVAILABLE',
};

/** The HTTP status of each kind of domain refusal: the API's problems and the consoles' error pages answer alike. */
export const STATUS_BY_KIND = { invalid: 400, conflict: 409, not_found: 404, unavailable: 503 } as const;

/** An HttpException that carries one of our codes. */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message, status);
  }
}

function problem(statusCode: number, path: string, code: string, message: string): Problem {
  return { status: 'error', timestamp: new Date().toISOString(), path, message, error: { code, message } };
}

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

export function toProblem(exception: unknown, path: string): ProblemResponse {
  if (exception instanceof DomainError) {
    const statusCode = STATUS_BY_KIND[exception.kind];
    // A dependency still catching up: soon is the right time to ask again.
    const headers = exception.kind === 'unavailable' ? { 'retry-after': '1' } : undefined;
    return { statusCode, body: problem(statusCode, path, exception.code, exception.message), headers, unexpected: false };
  }
  if (exception instanceof ApiError) {
    const statusCode = exception.getStatus();
    return { statusCode, body: problem(statusCode, path, exception.code, exception.message), headers: exception.headers, unexpected: false };
  }
  if (exception instanceof HttpException) {
    const statusCode = exception.getStatus();
    const code = CODE_BY_STATUS[statusCode] ?? exception.name;
    return { statusCode, body: problem(statusCode, path, code, httpExceptionMessage(exception)), unexpected: statusCode >= 500 };
  }
  if (isConnectionError(exception)) {
    // PostgreSQL restarting, failing over, or a connection cut under the request: nothing of it was
    // committed, and a retry soon may well succeed, which a 500 would not tell the client.
    const body = problem(503, path, 'DATABASE_UNAVAILABLE', 'The database could not be reached; retry shortly');
    return { statusCode: 503, body, headers: { 'retry-after': '1' }, unexpected: true };
  }
  return {
    statusCode: 500,
    body: problem(500, path, 'GEN_004', 'An unexpected error occurred; it has been logged'),
    unexpected: true,
  };
}

function acceptedQuality(parameters: string[]): number {
  const quality = parameters.find((parameter) => parameter.startsWith('q='));
  const value = quality === undefined ? 1 : Number(quality.slice(2));
  return Number.isFinite(value) ? value : 0;
}

/**
 * Whether the Accept header names application/problem+json with a quality at least that of
 * application/json (named, or through `application/*` or `*\/*`, the most specific range counting).
 * A wildcard alone never selects it: the envelope stays what clients that did not ask get.
 */
export function prefersProblemDetails(accept: string | undefined): boolean {
  if (!accept) return false;
  let problem = 0;
  let json = { specificity: -1, quality: 0 };
  for (const part of accept.split(',')) {
    const [range, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const quality = acceptedQuality(parameters);
    if (range === PROBLEM_MEDIA_TYPE) problem = Math.max(problem, quality);
    const specificity = ['*/*', 'application/*', ENVELOPE_MEDIA_TYPE].indexOf(range);
    if (specificity > json.specificity) json = { specificity, quality };
    else if (specificity >= 0 && specificity === json.specificity) json.quality = Math.max(json.quality, quality);
  }
  return problem > 0 && problem >= json.quality;
}

/** The envelope as RFC 9457 problem details: a function of the envelope and the status alone, so a stored refusal replays in either shape. */
export function problemDetails(statusCode: number, body: Problem): ProblemDetails {
  return {
    type: `${PROBLEM_TYPE_PREFIX}${body.error.code}`,
    title: STATUS_CODES[statusCode] ?? 'Error',
    status: statusCode,
    detail: body.error.message,
    instance: body.path,
    code: body.error.code,
    timestamp: body.timestamp,
    path: body.path,
    message: body.message,
    error: body.error,
  };
}

/** What a refusal is sent as, by the request's Accept: the envelope as application/json, or problem details. */
export function renderProblem(statusCode: number, body: Problem, accept: string | undefined): { contentType: string; payload: Problem | ProblemDetails } {
  if (prefersProblemDetails(accept)) return { contentType: `${PROBLEM_MEDIA_TYPE}; charset=utf-8`, payload: problemDetails(statusCode, body) };
  return { contentType: `${ENVELOPE_MEDIA_TYPE}; charset=utf-8`, payload: body };
}
