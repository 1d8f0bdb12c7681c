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

interface Step {
  key: string;
  inArray: boolean;
}

/** What cannot be stored (a text, a field's name, the nesting itself), and the keys that lead to what holds it. */
interface Finding {
  kind: 'text' | 'key' | 'depth';
  problem: string;
  trail: Step[];
}

/**
 * The first thing in a parsed body, query or set of path parameters that cannot be stored. Its field is named
 * only once one is found: every request's input is walked, and naming each field on the way would build a
 * string per key for nothing.
 */
function unstorable(value: unknown, depth: number): Finding | undefined {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem === undefined ? undefined : { kind: 'text', problem, trail: [] };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > MAX_JSON_DEPTH) return { kind: 'depth', problem: '', trail: [] };
  const inArray = Array.isArray(value);
  for (const key of Object.keys(value)) {
    const keyProblem = textProblem(key);
    if (keyProblem) return { kind: 'key', problem: keyProblem, trail: [] };
    const found = unstorable((value as Record<string, unknown>)[key], depth + 1);
    if (found) {
      found.trail.unshift({ key, inArray });
      return found;
    }
  }
  return undefined;
}

function problemIn(input: unknown, root: string): string | undefined {
  const finding = unstorable(input, 0);
  return finding && described(finding, root);
}

function described(finding: Finding, root: string): string {
  if (finding.kind === 'depth') return `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`;
  const field = finding.trail.reduce((parent, step, depth) => childField(parent, step.key, step.inArray, depth), root);
  if (finding.kind === 'key') return `A field name${field ? ` in ${field}` : ''} ${finding.problem}`;
  return `${field || 'The request body'} ${finding.problem}`;
}

/**
 * Input PostgreSQL cannot hold (NUL, lone surrogates) or that would exhaust the stack of the
 * validators (deep nesting) is refused as a 400 here, once for every route, instead of surfacing
 * as a database or stack-overflow 500 wherever it first meets a query or a recursive walk.
 */
export async function refuseUnstorableInput(request: FastifyRequest): Promise<void> {
  const problem = problemIn(request.params, 'path parameter') ?? problemIn(request.query, 'query parameter') ?? problemIn(request.body, '');
  if (problem) throw new BadRequestException(problem);
}
