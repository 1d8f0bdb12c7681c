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
 * openapi-backend validates JSON bodies declared as `application/json` only; a problem answer is
 * JSON too, so the validator gets a copy of the document where each problem+json schema is also
 * offered as application/json. The served document itself is what is looked up otherwise.
 */
function withProblemsAsJson(document: Json): Json {
  const copy = structuredClone(document);
  for (const path of Object.values<Json>(copy.paths)) {
    for (const operation of Object.values<Json>(path)) {
      for (const response of Object.values<Json>(operation.responses ?? {})) {
        const problem = response.content?.['application/problem+json'];
        if (problem && !response.content['application/json']) response.content['application/json'] = problem;
      }
    }
  }
  return copy;
}

/** Checks exchanges against the OpenAPI document: each difference comes back as one readable line. */
export async function contractChecker(document: Json): Promise<(exchange: Exchange) => string[]> {
  // Formats (date-time, uri, …) are checked with ajv-formats, the plugin Fastify validates with (a dependency of ours through it).
  // `quick` skips openapi-backend's check of the document itself, which knows OpenAPI 3.0 only (it
  // refuses 3.1's webhooks and null types): Redocly checks the document, as 3.1, in the contract test.
  const api = new OpenAPIBackend({
    definition: withProblemsAsJson(document) as Document,
    validate: true,
    strict: true,
    quick: true,
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => addFormats(ajv),
  });
  await api.init();
  return (exchange) => {
    const label = `${exchange.method} ${exchange.path.slice(0, 100)} → ${exchange.status}`;
    const [pathname, query = ''] = exchange.path.split('?');
    const request = { method: exchange.method, path: pathname, query, headers: exchange.requestHeaders, body: exchange.requestBody };
    const operation = api.matchOperation(request);
    if (!operation) return [`${label}: no operation in the document`];
    const problems: string[] = [];
    const sent = api.validateRequest(request, operation);
    // A request the contract refuses is fine when it was sent to see the refusal; one it allows must be answered as documented.
    if (exchange.status < 400 && !sent.valid) problems.push(`${label}: request not valid: ${JSON.stringify(sent.errors)}`);
    const documented = operation.responses?.[String(exchange.status)] as Json | undefined;
    if (!documented) return [...problems, `${label}: status not documented (documented: ${Object.keys(operation.responses ?? {}).join(', ')})`];
    const mediaType = exchange.contentType.split(';')[0].trim();
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
 * (apps/api/src/http/openapi/examples holds them), one line each.
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
