import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CALLBACK_PAYLOAD_SCHEMAS, CALLBACK_PAYLOADS_BY_URL } from '@app/callbacks';
import { INVALID_DATE_TIME, INVALID_DISPLAY_TEXT } from '@app/domain';
import { problemResponse } from './api-problems';
import { describeExamples } from './examples';
import { asOpenApi31 } from './openapi-31';
import { withSecuritySchemes } from './security';

type Schema = Record<string, any>;
type Operation = Schema & { responses: Record<string, Schema> };

/**
 * What the framework answers on any operation, whatever its handler does: added here once instead
 * of on every route (src/http/request-input.hooks.ts, validation.pipe.ts, idempotency, rate limit, problem.ts).
 */
function frameworkProblems(method: string, operation: Operation): Record<number, string[]> {
  const parameters: Schema[] = operation.parameters ?? [];
  const hasBody = operation.requestBody !== undefined;
  const problems: Record<number, string[]> = {};
  const add = (status: number, ...codes: string[]) => (problems[status] = [...(problems[status] ?? []), ...codes]);
  if (hasBody) add(400, 'BadRequestException', 'UNKNOWN_FIELD', INVALID_DATE_TIME, INVALID_DISPLAY_TEXT);
  else if (parameters.some((parameter) => parameter.in === 'query')) add(400, 'BadRequestException');
  if (method === 'post') {
    add(400, 'BadRequestException');
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
  const media = Object.values<Schema>(existing.content ?? {})[0];
  const declared: string[] | undefined = media?.schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum;
  // A status answered in another shape (the health report's 503) keeps its own description.
  if (!declared) return undefined;
  const merged = problemResponse(status, [...new Set([...declared, ...codes])]);
  return { ...merged, content: { ...merged.content, [Object.keys(existing.content)[0]]: { ...Object.values<Schema>(merged.content)[0], example: media.example } } };
}

/** Response schemas are closed unless they say otherwise: a field the document lacks fails the contract test. */
function closeResponseSchemas(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const seen = new Set<string>();
  // Named schemas only, and not those composed with allOf (a problem and its list of codes): closed,
  // a part would refuse the fields another part declares.
  const visit = (schema: Schema | undefined): void => {
    if (!schema || typeof schema !== 'object' || schema.allOf) return;
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop()!;
      if (seen.has(name)) return;
      seen.add(name);
      const named = schemas[name];
      if (named?.properties && named.additionalProperties === undefined) named.additionalProperties = false;
      return visit(named);
    }
    for (const child of [...Object.values<Schema>(schema.properties ?? {}), schema.items, ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) visit(child);
  };
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path) as Operation[]) {
      for (const response of Object.values(operation.responses ?? {})) for (const media of Object.values<Schema>(response.content ?? {})) visit(media.schema);
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

export function buildOpenApiDocument(app: INestApplication, description: string): OpenAPIObject {
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
    }
  }
  closeResponseSchemas(document);
  describeCallbacks(document);
  const converted = asOpenApi31(document);
  // After the conversion, which rewrites `nullable` wherever it finds it: an example is data, not a schema.
  describeExamples(converted);
  return { ...converted, webhooks: callbackWebhooks() } as OpenAPIObject;
}
