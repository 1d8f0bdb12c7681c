import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CALLBACK_PAYLOAD_SCHEMAS, CALLBACK_PAYLOADS_BY_URL } from '@app/callbacks';
import { INVALID_DATE_TIME, INVALID_DISPLAY_TEXT } from '@app/domain';
import { createHash } from 'node:crypto';
import { ACCOUNT_HEADER } from '../request-context';
import { problemCodes, problemResponse } from './api-problems';
import { withSecuritySchemes } from './security';
import { asOpenApi31 } from './openapi-31';

type Schema = Record<string, any>;
type Operation = Schema & { responses: Record<string, Schema> };

/** A route of the merchant API (MerchantApi in security.ts): its guard resolves `x-account-id` (libs/http/src/auth.guards.ts). */
function isMerchantApi(operation: Operation): boolean {
  return (operation.security ?? []).some((requirement: Schema) => 'merchant' in requirement);
}

/** The parameter ActingCaller declares (libs/http/src/request-context.ts): present exactly on the routes that act for an account. */
function takesAccountHeader(operation: Operation): boolean {
  return (operation.parameters ?? []).some((parameter: Schema) => parameter.in === 'header' && parameter.name?.toLowerCase() === ACCOUNT_HEADER);
}

/** Provider notifications (ProviderSignedApi): their body is the provider's, read by its own reader, not a DTO. */
function isProviderSigned(operation: Operation): boolean {
  return (operation.security ?? []).some((requirement: Schema) => 'sandboxSignature' in requirement);
}

/**
 * What the framework answers on any operation, whatever its handler does: added here once instead
 * of on every route (libs/http/src/request-input.hooks.ts, validation.pipe.ts, idempotency, rate limit, problem.ts).
 */
function frameworkProblems(method: string, operation: Operation): Record<number, string[]> {
  const parameters: Schema[] = operation.parameters ?? [];
  const hasBody = operation.requestBody !== undefined && !isProviderSigned(operation);
  const problems: Record<number, string[]> = {};
  const add = (status: number, ...codes: string[]) => (problems[status] = [...(problems[status] ?? []), ...codes]);
  // Any request: a NUL or lone surrogate in a path or query parameter (refuseUnstorableInput), or a
  // path Fastify cannot decode, a malformed percent-encoding (frameworkErrors in libs/http/src/service/http-app.ts).
  add(400, 'BadRequestException');
  if (hasBody) add(400, 'UNKNOWN_FIELD', INVALID_DATE_TIME, INVALID_DISPLAY_TEXT);
  // A POST without a body of its own takes an empty object at most (NO_BODY).
  else if (method === 'post' && operation.requestBody === undefined) add(400, 'UNKNOWN_FIELD');
  if (isMerchantApi(operation)) {
    // The guard answers 404 for an x-account-id that is not one of the platform's accounts; a route
    // that acts only for the key's own merchant (CurrentMerchant) refuses the header it does not take.
    add(404, 'ABC_001');
    if (!takesAccountHeader(operation)) add(400, 'ACCOUNT_HEADER_NOT_ACCEPTED');
  }
  if (method === 'post') {
    add(409, 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE');
    add(413, 'PAYLOAD_TOO_LARGE');
    add(415, 'UNSUPPORTED_MEDIA_TYPE');
  }
  if (parameters.some((parameter) => parameter.in === 'path')) add(414, 'URI_TOO_LONG');
  add(429, 'RATE_LIMITED');
  add(500, 'GEN_004');
  add(503, 'DATABASE_UNAVAILABLE');
  return problems;
}

/**
 * A POST whose route declares no body takes none: an empty JSON object at most, any field of it refused
 * with 400 UNKNOWN_FIELD (libs/http/src/validation.pipe.ts).
 */
const NO_BODY = {
  required: false,
  description: 'Nothing: an empty object at most',
  content: { 'application/json': { schema: { type: 'object', additionalProperties: false, properties: {} }, example: {} } },
};

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Any POST: the first answer is kept for 24 hours and replayed for the same key and body',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
};

/** A response's problem codes: merged with the framework's when the operation declared the status itself. */
function mergeProblem(existing: Schema | undefined, status: number, codes: string[]): Schema | undefined {
  // Declared with a description only: its codes are documented by ApiProblems on the route, or not at all.
  if (!existing?.content) return problemResponse(status, codes);
  const declared = problemCodes(existing);
  // A status answered in another shape (the health report's 503) keeps its own description.
  if (!declared) return undefined;
  // The route's own codes first: the examples show the first.
  return problemResponse(status, [...declared, ...codes]);
}

/**
 * Schemas are closed unless they say otherwise. Responses: a field the document lacks fails the
 * contract test. Requests: the service refuses a field it does not declare with 400 UNKNOWN_FIELD
 * (libs/http/src/validation.pipe.ts), so the document says it may not be sent.
 */
function closeSchemas(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const seen = new Set<string>();
  // Named schemas only, and not those composed with allOf (a problem and its list of codes): closed,
  // a part would refuse the fields another part declares.
  // A request body's inline objects are closed too (the validation pipe refuses at every depth); a
  // response's inline ones say themselves whether they are (the envelope does).
  const visit = (schema: Schema | undefined, request: boolean): void => {
    if (!schema || typeof schema !== 'object' || schema.allOf) return;
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop()!;
      if (seen.has(name)) return;
      seen.add(name);
      const named = schemas[name];
      if (named?.properties && named.additionalProperties === undefined) named.additionalProperties = false;
      return visit(named, request);
    }
    if (request && schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
    for (const child of [...Object.values<Schema>(schema.properties ?? {}), schema.items, ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) visit(child, request);
  };
  for (const { operation } of operations(document)) {
    for (const media of Object.values<Schema>(operation.requestBody?.content ?? {})) visit(media.schema, true);
    for (const response of Object.values(operation.responses ?? {})) for (const media of Object.values<Schema>(response.content ?? {})) visit(media.schema, false);
  }
}

function operations(document: OpenAPIObject): Array<{ method: string; path: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ method, path, operation })));
}

/**
 * The headers of every answer: the request id (the onSend hook in
 * libs/http/src/service/http-app.ts), the rate limit's counters when it is on (libs/http/src/operations/rate-limit/rate-limit.guard.ts),
 * and on a POST whether it was replayed for its Idempotency-Key (libs/http/src/idempotency.interceptor.ts).
 */
const RESPONSE_HEADERS: Record<string, Schema> = {
  RequestId: { description: 'This request’s id: yours when you sent a sane `x-request-id`, else one made for it; quote it when asking about a request', required: true, schema: { type: 'string' } },
  RateLimitLimit: { description: 'Requests allowed per minute (RATE_LIMIT_PER_MINUTE), when the rate limit is on', schema: { type: 'integer', minimum: 0 } },
  RateLimitRemaining: { description: 'Requests left in the current minute, when the rate limit is on', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'Seconds until the current minute’s count starts again, when the rate limit is on', schema: { type: 'integer', minimum: 0 } },
  IdempotentReplayed: { description: 'Present when this answer is the one kept for the request’s Idempotency-Key, replayed', schema: { type: 'string', enum: ['true'] } },
};

function describeResponseHeaders(document: OpenAPIObject): void {
  const components = document.components as Schema;
  // Written out on each response rather than as components/headers, which the client's generator does not follow.
  const common = { 'x-request-id': RESPONSE_HEADERS.RequestId, 'X-RateLimit-Limit': RESPONSE_HEADERS.RateLimitLimit, 'X-RateLimit-Remaining': RESPONSE_HEADERS.RateLimitRemaining, 'X-RateLimit-Reset': RESPONSE_HEADERS.RateLimitReset };
  const visit = (response: Schema, replayable: boolean) => {
    response.headers = { ...common, ...(replayable ? { 'Idempotent-Replayed': RESPONSE_HEADERS.IdempotentReplayed } : {}), ...response.headers };
  };
  for (const { method, operation } of operations(document)) {
    // A failure of the server is not kept for the key (idempotency.interceptor.ts): only answers under 500
    // replay. A refusal states it whatever the method, so that one component serves every operation refused alike.
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!response.$ref) visit(response, Number(status) < 500 && (method === 'post' || problemCodes(response) !== undefined));
    }
  }
  for (const response of Object.values<Schema>(components.responses ?? {})) visit(response, false);
}

/** A refusal's component name: its status and codes, shortened with a digest when they are many. */
function problemResponseName(status: string, codes: string[]): string {
  const joined = codes.join('_');
  return `Problem${status}_${joined.length <= 60 ? joined : `${codes[0]}_${createHash('sha256').update(joined).digest('hex').slice(0, 8)}`}`;
}

/**
 * Each refusal is one shared response component, named by its status and codes, and each operation
 * refers to it: operations refused alike (every 401 AUTH_001, every 429) share one, so the two shapes
 * of a refusal are written once, not on each of the operations.
 */
function shareProblemResponses(document: OpenAPIObject): void {
  const components = document.components as Schema;
  const shared: Record<string, Schema> = (components.responses ??= {});
  for (const { operation } of operations(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      const codes = response.$ref ? undefined : problemCodes(response);
      if (!codes) continue;
      const name = problemResponseName(status, codes);
      shared[name] ??= response;
      operation.responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
}

/** The methods the audit API refuses before any route (src/audit/audit-read-only.hook.ts): each stated on every audit path, so a 405 is in the document. */
const AUDIT_WRITES = ['post', 'put', 'patch', 'delete'] as const;
const AUDIT_PREFIX = '/v1/audit';

function describeAuditReadOnly(document: OpenAPIObject): void {
  const components = document.components as Schema;
  const refused = problemResponse(405, ['AUDIT_READ_ONLY']);
  components.responses = {
    ...components.responses,
    AuditReadOnly: { ...refused, description: 'AUDIT_READ_ONLY: the audit API is read-only', headers: { Allow: { description: 'The methods it takes', required: true, schema: { type: 'string', enum: ['GET, HEAD'] } } } },
  };
  for (const [path, item] of Object.entries(document.paths) as [string, Record<string, Operation>][]) {
    if (path !== AUDIT_PREFIX && !path.startsWith(`${AUDIT_PREFIX}/`)) continue;
    const read = item.get;
    for (const method of AUDIT_WRITES) {
      item[method] = {
        operationId: `${read.operationId}_${method}`,
        summary: 'Refused: the audit API is read-only, whatever the credential',
        tags: read.tags,
        parameters: (read.parameters ?? []).filter((parameter: Schema) => parameter.in === 'path'),
        security: [],
        responses: { '405': { $ref: '#/components/responses/AuditReadOnly' } },
      };
    }
  }
}

/** The headers every callback carries (libs/callback-delivery/src/callback-delivery.service.ts). */
const CALLBACK_HEADERS = [
  { name: 'x-timestamp', in: 'header', required: true, description: 'Unix time in milliseconds (13 digits), signed with the body', schema: { type: 'string', pattern: '^\\d{13}$' } },
  {
    name: 'x-signature',
    in: 'header',
    required: true,
    description: 'Lowercase hex HMAC-SHA256, keyed with your webhook secret, over `${x-timestamp}.${body}` (docs/guides/verifying-callbacks.md)',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  { name: 'x-delivery-id', in: 'header', required: true, description: 'The payload’s deliveryId: the same on every retry', schema: { type: 'string' } },
];

/** How the delivery reads your server's answer (docs/guides/verifying-callbacks.md, Delivery). */
const CALLBACK_ANSWERS = {
  '2XX': { description: 'Delivered (within CALLBACK_TIMEOUT_MS)' },
  '410': { description: 'No more attempts for this delivery' },
  default: { description: 'Anything else, or no answer in time: retried on the retry schedule (429 and 503 with their Retry-After), then abandoned' },
};

const CALLBACK_SUMMARIES: Record<string, string> = {
  OrderCallback: 'What the order’s callbackURL receives when it is paid, its payment fails or a refund completes',
  EscrowCallback: 'What the escrow’s callbackURL receives at each payment, release, dispute, cancellation and refund',
  PayoutCallback: 'What the payout settings’ callbackURL receives when a payout is paid or fails',
  AccountCallback: 'What a seller account’s callbackURL receives: its own share of each escrow, its payouts and its transfers, signed with the account’s webhook secret',
};

/**
 * The callback payloads in the document, from the schemas callback-payloads.spec.ts holds the built
 * payloads to: each a component (the events API's `payload` names them too), and on each operation
 * that registers a callback URL (ApiCallbackPayloads) the payloads it receives, signed.
 */
function describeCallbacks(document: OpenAPIObject): void {
  const schemas = (document.components!.schemas ??= {}) as Record<string, Schema>;
  Object.assign(schemas, structuredClone(CALLBACK_PAYLOAD_SCHEMAS));
  for (const [name, payloads] of Object.entries(CALLBACK_PAYLOADS_BY_URL)) {
    schemas[name] = { description: CALLBACK_SUMMARIES[name], oneOf: payloads.map((payload) => ({ $ref: `#/components/schemas/${payload}` })) };
  }
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path) as Operation[]) {
      for (const [name, expressions] of Object.entries<Record<string, Record<string, Schema>>>(operation.callbacks ?? {})) {
        for (const callback of Object.values(expressions).flatMap((item) => Object.values(item))) {
          Object.assign(callback, {
            summary: CALLBACK_SUMMARIES[name],
            description: 'Delivered at least once, retried with backoff until your server answers 2xx; every payload is also listed by GET /v1/trdp/events.',
            operationId: `${operation.operationId}_${name}`,
            parameters: CALLBACK_HEADERS,
            security: [],
            responses: CALLBACK_ANSWERS,
          });
        }
      }
    }
  }
}

/** Each payload by its `status`, as OpenAPI 3.1 webhooks: what a receiver is sent, whichever URL it registered. */
function callbackWebhooks(): Record<string, Schema> {
  return Object.fromEntries(
    (Object.entries(CALLBACK_PAYLOAD_SCHEMAS) as [string, Schema][]).map(([name, schema]) => {
      const status: string = schema.properties.status.enum[0];
      const operation = {
        summary: `${status}: ${schema.description}`,
        description: 'Signed with your webhook secret and delivered at least once; also listed by GET /v1/trdp/events (docs/reference/callbacks.md).',
        operationId: `webhook_${status}`,
        tags: ['callbacks'],
        parameters: CALLBACK_HEADERS,
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
        responses: CALLBACK_ANSWERS,
      };
      return [status, { post: operation }];
    }),
  );
}

const LIVEMODE = {
  type: 'boolean',
  description: 'Whether the object is live (real money, the configured provider) or test (the sandbox): the mode of the tenant whose key read it (docs/concepts/modes.md). Present on every answer of the merchant API.',
  example: false,
};

/**
 * Where the merchant API's answers carry `livemode` (libs/http/src/livemode.ts): the
 * model of `data`, and the model of each list it holds. Not required: a model an admin or audit route
 * answers too says no mode there.
 */
function describeLivemode(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const named = (schema: Schema | undefined): Schema | undefined => {
    const ref = schema?.$ref ?? schema?.anyOf?.find((part: Schema) => part.$ref)?.$ref;
    return typeof ref === 'string' ? schemas[ref.split('/').pop()!] : undefined;
  };
  const mark = (schema: Schema | undefined) => {
    if (schema?.properties) schema.properties.livemode ??= LIVEMODE;
  };
  for (const { operation } of operations(document)) {
    if (!isMerchantApi(operation)) continue;
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!status.startsWith('2')) continue;
      const data = response.content?.['application/json']?.schema?.properties?.data as Schema | undefined;
      if (!data) continue;
      if (data.type === 'array') {
        mark(named(data.items));
        continue;
      }
      const model = named(data);
      mark(model);
      // A page's items say their mode, as each would alone; an object's parts do not (libs/http/src/livemode.ts).
      if (!model?.properties?.hasMore) continue;
      for (const property of Object.values<Schema>(model.properties)) if (property.type === 'array') mark(named(property.items));
    }
  }
}

/** The REST edge's OpenAPI document: what Nest's scan of `app` says, completed; `describeExamples` sets each operation's example. */
export function buildOpenApiDocument(app: INestApplication, description: string, describeExamples: (document: OpenAPIObject) => void): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Escrow ledger and payment collection API')
    .setDescription(description)
    .setVersion('1.0.0')
    .addServer('/', 'This service');
  const document = SwaggerModule.createDocument(app, withSecuritySchemes(builder).build());
  for (const path of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(path) as [string, Operation][]) {
      // A handler that reads the key itself (@Headers) would state it again, as required.
      if (method === 'post') operation.parameters = [...(operation.parameters ?? []).filter((parameter: Schema) => parameter.name?.toLowerCase() !== 'idempotency-key'), IDEMPOTENCY_KEY];
      for (const [status, codes] of Object.entries(frameworkProblems(method, operation))) {
        const merged = mergeProblem(operation.responses[status], Number(status), codes);
        if (merged) operation.responses[status] = merged;
      }
      if (method === 'post') operation.requestBody ??= structuredClone(NO_BODY);
    }
  }
  describeLivemode(document);
  closeSchemas(document);
  describeCallbacks(document);
  describeAuditReadOnly(document);
  describeResponseHeaders(document);
  shareProblemResponses(document);
  const converted = asOpenApi31(document);
  // After the conversion, which rewrites `nullable` wherever it finds it: an example is data, not a schema.
  describeExamples(converted);
  return { ...converted, webhooks: callbackWebhooks() } as OpenAPIObject;
}
