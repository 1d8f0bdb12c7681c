import addFormats from 'ajv-formats';
import OpenAPIBackend from 'openapi-backend';
import type { Document } from 'openapi-backend';

/** An exchange as the contract test saw it: what was sent and what came back. */
export interface Exchange {
  method: string;
  /** With its query string. */
  path: string;
  requestHeaders: Record<string, string>;
  requestBody?: unknown;
  status: number;
  contentType: string;
  responseHeaders?: Record<string, string>;
  responseBody: unknown;
}

type Json = Record<string, any>;

/**
 * openapi-backend validates JSON bodies declared as `application/json` only. A refusal is the envelope
 * as application/json, or problem details as application/problem+json (libs/http/src/problem.ts): problem
 * details are checked by a second validator, on a copy of the document where each problem+json schema
 * stands in for the envelope's.
 */
function withProblemDetailsAsJson(document: Json): Json {
  const copy = structuredClone(document);
  const responses = [
    ...Object.values<Json>(copy.components?.responses ?? {}),
    ...Object.values<Json>(copy.paths).flatMap((path) => Object.values<Json>(path).flatMap((operation) => Object.values<Json>(operation.responses ?? {}))),
  ];
  for (const response of responses) {
    const details = response.content?.['application/problem+json'];
    if (details) response.content['application/json'] = details;
  }
  return copy;
}

async function validator(definition: Json): Promise<OpenAPIBackend> {
  // Formats (date-time, uri, …) are checked with ajv-formats, the plugin Fastify validates with (a dependency of ours through it).
  // `quick` skips openapi-backend's check of the document itself, which knows OpenAPI 3.0 only (it
  // refuses 3.1's webhooks and null types): Redocly checks the document, as 3.1, in the contract test.
  const api = new OpenAPIBackend({
    definition: definition as Document,
    validate: true,
    strict: true,
    quick: true,
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => addFormats(ajv),
  });
  await api.init();
  return api;
}

/** openapi-backend decodes the path's parameters and throws on a malformed percent-encoding: such a request is not valid. */
function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Checks exchanges against the OpenAPI document: each difference comes back as one readable line. */
export async function contractChecker(document: Json): Promise<(exchange: Exchange) => string[]> {
  const envelopes = await validator(document);
  const details = await validator(withProblemDetailsAsJson(document));
  return (exchange) => {
    const mediaType = exchange.contentType.split(';')[0].trim();
    const api = mediaType === 'application/problem+json' ? details : envelopes;
    const label = `${exchange.method} ${exchange.path.slice(0, 100)} → ${exchange.status}`;
    const [pathname, query = ''] = exchange.path.split('?');
    const request = { method: exchange.method, path: pathname, query, headers: exchange.requestHeaders, body: exchange.requestBody };
    const operation = api.matchOperation(request);
    if (!operation) return [`${label}: no operation in the document`];
    const problems: string[] = [];
    const sent = decodable(exchange.path) ? api.validateRequest(request, operation) : { valid: false, errors: 'a path that does not decode' };
    // A request the contract refuses is fine when it was sent to see the refusal; one it allows must be answered as documented.
    if (exchange.status < 400 && !sent.valid) problems.push(`${label}: request not valid: ${JSON.stringify(sent.errors)}`);
    const documented = operation.responses?.[String(exchange.status)] as Json | undefined;
    if (!documented) return [...problems, `${label}: status not documented (documented: ${Object.keys(operation.responses ?? {}).join(', ')})`];
    if (documented.content && !documented.content[mediaType]) problems.push(`${label}: content type ${mediaType} not documented (${Object.keys(documented.content).join(', ')})`);
    if (mediaType.endsWith('json')) {
      if (!documented.content?.[mediaType]?.schema) return [...problems, `${label}: no schema documented for the answer`];
      const answered = api.validateResponse(exchange.responseBody, operation, exchange.status);
      if (!answered.valid) problems.push(`${label}: answer not as documented: ${JSON.stringify(answered.errors)} in ${JSON.stringify(exchange.responseBody).slice(0, 300)}`);
    }
    return problems;
  };
}

/**
 * The operations lacking an example of their JSON request body or of a success answer with a body
 * (apps/api/src/http/openapi/examples/index.ts gathers them), one line each.
 */
export function operationsWithoutExamples(document: Json): string[] {
  const missing: string[] = [];
  for (const [path, methods] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(methods)) {
      const label = `${method.toUpperCase()} ${path}`;
      const body = operation.requestBody?.content?.['application/json'];
      if (body && body.example === undefined) missing.push(`${label}: no example of its request body`);
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        if (Object.values<Json>(response.content ?? {}).some((media) => media.example === undefined)) missing.push(`${label}: no example of its ${status} answer`);
      }
    }
  }
  return missing;
}
