import { BadRequestException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MULTIPART_API_ROUTES } from './multipart-routes';
import { ApiError } from './problem';
import { sendProblem } from './problem.filter';

/** Deeper JSON is no order or escrow; class-transformer and the ledger's canonical JSON recurse per level. */
export const MAX_JSON_DEPTH = 32;

/** The JSON API: merchant, admin, audit and provider endpoints, and the checkout page's own calls. */
const JSON_API = /^\/(v1|checkout)\//;

// A lone surrogate has no UTF-8 form: PostgreSQL refuses it inside jsonb and pg rewrites it in text.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * docs/reference/errors.md: a body that is not application/json is a 415 before it is read. Fastify would
 * otherwise parse text/plain and form bodies too, and routes without a DTO would accept them. A route
 * that takes a file (MULTIPART_API_ROUTES) takes multipart/form-data too.
 */
export async function refuseNonJsonBodies(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (!JSON_API.test(request.url) || !hasBody(request)) return undefined;
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType === 'application/json') return undefined;
  if (mediaType === 'multipart/form-data' && MULTIPART_API_ROUTES.has(request.routeOptions.url ?? '')) return undefined;
  return sendProblem(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json'), request, reply);
}

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode text (a lone surrogate)';
  return undefined;
}

/** `items[0].name` in a body; `path parameter id`, `query parameter orderId` at the top of the others. */
function childField(field: string, key: string, inArray: boolean, depth: number): string {
  if (inArray) return `${field}[${key}]`;
  if (field === '') return key;
  return depth === 0 ? `${field} ${key}` : `${field}.${key}`;
}

/** The first thing in a parsed body, query or set of path parameters that cannot be stored, named by its field. */
function unstorable(value: unknown, field: string, depth: number): string | undefined {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem && `${field || 'The request body'} ${problem}`;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > MAX_JSON_DEPTH) return `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`;
  for (const [key, child] of Object.entries(value)) {
    const keyProblem = textProblem(key);
    if (keyProblem) return `A field name${field ? ` in ${field}` : ''} ${keyProblem}`;
    const problem = unstorable(child, childField(field, key, Array.isArray(value), depth), depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Input PostgreSQL cannot hold (NUL, lone surrogates) or that would exhaust the stack of the
 * validators (deep nesting) is refused as a 400 here, once for every route, instead of surfacing
 * as a database or stack-overflow 500 wherever it first meets a query or a recursive walk.
 */
export async function refuseUnstorableInput(request: FastifyRequest): Promise<void> {
  const problem =
    unstorable(request.params, 'path parameter', 0) ?? unstorable(request.query, 'query parameter', 0) ?? unstorable(request.body, '', 0);
  if (problem) throw new BadRequestException(problem);
}
