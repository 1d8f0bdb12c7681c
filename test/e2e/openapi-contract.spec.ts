/**
 * The OpenAPI document is the contract (issue 32, item 1; issue 37, item 7): a walk through every
 * documented route, with every credential and the refusals every route can give (an `x-account-id`
 * it does not take, a malformed path parameter, a write to the audit API), in both error shapes
 * (the envelope, and problem details when Accept asks for them), is checked against the document the
 * service serves at /docs-json with openapi-backend, and by Stoplight Prism as a validating proxy in
 * front of the service, an implementation of OpenAPI independent of both. An answer with a field,
 * status, header or error code the document lacks fails, naming the route. Every route is also walked
 * past the rate limit (429) and with its database gone (503). The document itself passes Redocly's
 * recommended rules, which check every operation's example against its schemas; an operation
 * without one fails here.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CALLBACK_PAYLOAD_SCHEMAS, CALLBACK_TYPES } from '@app/callbacks';
import { OPERATION_EXAMPLES } from '../../apps/api/src/http/openapi/examples';
import { asOpenApi31 } from '../../libs/http/src/openapi/openapi-31';
import { PostgresProxy } from '../../chaos/src/postgres-proxy';
import { type RunningApp, startApp } from '../support/app';
import { escrowRequest } from '../support/fixtures';
import { call } from '../support/http';
import { contractChecker, type Exchange, operationsWithoutExamples } from '../support/openapi-contract';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { type PrismProxy, type PrismViolation, prismViolations, startPrismProxy } from '../support/prism-proxy';
import { type AccessRequest, credentialHeaders, type Credential, ROUTE_ACCESS } from '../support/route-access';
import { FAST_SANDBOX, seedResources, type SeededResources, waitForQuiet } from '../support/seeded-resources';
import { waitFor } from '../support/wait';

const ROOT = join(__dirname, '..', '..');
/** `malformed` is the matrix's concern (six header values); one wrong key shows the refusal's shape. */
const WALKED: Credential[] = ['none', 'wrong', 'owner', 'otherMerchant', 'auditor', 'admin'];

type Document = Record<string, any>;

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  /**
   * Sent to the service itself, not through Prism, which cannot forward it: a malformed
   * percent-encoding (MALFORMED_ENCODING), or a body that is not JSON (Prism's server parses the body
   * by its content type and closes the connection when it cannot). Requests for problem details go
   * directly too: Prism 5.16 matches media types without their `+json` suffix, so it would hold an
   * application/problem+json answer to the application/json schema of the same response.
   */
  direct?: boolean;
}

/** What Prism said of one exchange it forwarded. */
interface Proxied {
  method: string;
  path: string;
  status: number;
  violations: PrismViolation[];
}

/** Asks for RFC 9457 problem details instead of the envelope (libs/http/src/problem.ts, prefersProblemDetails). */
const PROBLEM_DETAILS = { accept: 'application/problem+json' };
/**
 * A percent-encoding that decodes to no character. Prism 5.16 cannot route it (its input validator
 * throws URIError and the request is never answered), so it goes to the service directly.
 */
const MALFORMED_ENCODING = '%E0%A4%A';
/** A NUL, and a malformed percent-encoding: refused before any handler. */
const MALFORMED_PARAMETERS = ['bad%00id', MALFORMED_ENCODING];
const AUDIT_WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];

describe('the OpenAPI document is the contract', () => {
  let schema: TestSchema;
  /** Between the service and PostgreSQL, so the last test can take the database away. */
  let proxy: PostgresProxy;
  let running: RunningApp;
  let resources: SeededResources;
  let document: Document;
  let check: (exchange: Exchange) => string[];
  /** In front of the service for every exchange of this file but the rate-limited service's. */
  let prism: PrismProxy;
  const proxied: Proxied[] = [];

  beforeAll(async () => {
    schema = await createTestSchema('contract');
    const target = new URL(schema.url);
    proxy = await PostgresProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    running = await startApp({ schema, env: { ...FAST_SANDBOX, CALLBACK_RETRY_SCHEDULE_MS: '3600000', DATABASE_URL: proxy.urlFor(schema.url) } });
    resources = await seedResources(running);
    await waitForQuiet(running.schema!.client);
    document = (await call(running.baseUrl, 'GET', '/docs-json')).body;
    check = await contractChecker(document);
    prism = await startPrismProxy(document, running.baseUrl);
  });
  afterAll(async () => {
    await prism?.stop();
    await proxy?.restore();
    await resources?.close();
    await running?.stop();
    await proxy?.close();
    await schema?.drop();
  });

  /** Sends a request through Prism to the service, or to the service (at `baseUrl`) directly. */
  async function exchange(sent: Sent, baseUrl?: string): Promise<Exchange> {
    const hasBody = sent.body !== undefined || sent.rawBody !== undefined;
    const requestHeaders = { ...(hasBody ? { 'content-type': sent.contentType ?? 'application/json' } : {}), ...sent.headers };
    const proxiedByPrism = baseUrl === undefined && !sent.direct && sent.headers?.accept !== PROBLEM_DETAILS.accept;
    const response = await fetch(`${proxiedByPrism ? prism.url : (baseUrl ?? running.baseUrl)}${sent.path}`, {
      method: sent.method,
      headers: requestHeaders,
      body: sent.rawBody ?? (sent.body === undefined ? undefined : JSON.stringify(sent.body)),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    if (proxiedByPrism) proxied.push({ method: sent.method, path: sent.path, status: response.status, violations: prismViolations(response.headers) });
    return {
      method: sent.method,
      path: sent.path,
      requestHeaders,
      requestBody: sent.body ?? sent.rawBody,
      status: response.status,
      contentType,
      responseHeaders: Object.fromEntries(response.headers),
      responseBody: contentType.includes('json') ? JSON.parse(text) : text,
    };
  }

  /** `METHOD /v1/x/{id}` for a route-access entry, or undefined when the document leaves it out. */
  function documentedOperation(route: string): { method: string; path: string } | undefined {
    const [method, url] = route.split(' ');
    const path = url.replace(/:(\w+)/g, '{$1}');
    return document.paths[path]?.[method.toLowerCase()] ? { method, path } : undefined;
  }

  /** Each documented route's request, with the credential the route grants: the owner's key, or the admin key for the staff and audit APIs. */
  function grantedRequests(): Array<{ operation: { method: string; path: string }; request: AccessRequest; sent: Sent }> {
    return ROUTE_ACCESS.flatMap((access) => {
      const operation = documentedOperation(access.route);
      if (!operation) return [];
      const request: AccessRequest = access.request(resources, access.route.split(' ')[1]);
      // A body for a POST only: the DELETE route takes none.
      const body = operation.method === 'POST' ? (request.body ?? {}) : undefined;
      const headers = credentialHeaders(access.expect.owner === 401 ? 'admin' : 'owner', resources)[0];
      return [{ operation, request, sent: { method: operation.method, path: request.path, headers, body } }];
    });
  }

  /** Every request of the walk: each documented route with each credential, then the refusals any route can give. */
  function walk(): Sent[] {
    const sent: Sent[] = [];
    for (const { operation, request, sent: granted } of grantedRequests()) {
      const { body, headers: auth } = granted;
      for (const credential of WALKED) {
        for (const headers of credentialHeaders(credential, resources)) sent.push({ method: operation.method, path: request.path, headers, body });
      }
      const [pathname, query] = request.path.split('?');
      const withParameter = (value: string) => {
        if (!operation.path.includes('{')) return undefined;
        const segments = pathname.split('/');
        const index = operation.path.split('/').findIndex((segment) => segment.startsWith('{'));
        segments[index] = value;
        return segments.join('/') + (query ? `?${query}` : '');
      };
      for (const path of [withParameter('unknown-id'), withParameter('x'.repeat(101))]) {
        if (path) sent.push({ method: operation.method, path, headers: auth, body });
      }
      // Refused before any handler, in both error shapes.
      for (const [index, value] of MALFORMED_PARAMETERS.entries()) {
        const path = withParameter(value);
        if (path) sent.push({ method: operation.method, path, headers: { ...auth, ...(index === 0 ? PROBLEM_DETAILS : {}) }, body, direct: value === MALFORMED_ENCODING });
      }
      sent.push({ method: operation.method, path: request.path, headers: { ...auth, 'x-account-id': resources.accountId }, body });
      if (operation.method === 'POST') {
        sent.push({ method: 'POST', path: request.path, headers: auth, rawBody: '{"broken": ', direct: true });
        sent.push({ method: 'POST', path: request.path, headers: auth, rawBody: 'plain words', contentType: 'text/plain', direct: true });
        sent.push({ method: 'POST', path: request.path, headers: auth, body: { unexpected: true } });
        sent.push({ method: 'POST', path: request.path, headers: { ...auth, 'idempotency-key': 'k'.repeat(300) }, body });
      }
    }
    return sent;
  }

  /** The operations that only refuse: the audit API's writes, stated so that their 405 is documented. */
  function refusalsOnly(): Array<{ method: string; path: string }> {
    return Object.entries<Record<string, Document>>(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => !Object.keys(operation.responses).some((status) => status.startsWith('2')))
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    );
  }

  it('answers every documented route, with every credential and every refusal, as the document says', async () => {
    const refusing = new Set(refusalsOnly().map(({ method, path }) => `${method} ${path}`));
    const documented = Object.entries<Record<string, unknown>>(document.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      .filter((operation) => !refusing.has(operation));
    const walked = new Set(ROUTE_ACCESS.flatMap((access) => documentedOperation(access.route) ?? []).map(({ method, path }) => `${method} ${path}`));
    expect(documented.filter((operation) => !walked.has(operation))).toEqual([]);
    const sent = walk();
    expect(sent.length).toBeGreaterThan(200);
    const mismatches: string[] = [];
    for (const request of sent) {
      mismatches.push(...check(await exchange(request)));
      if (request.method === 'POST') await waitForQuiet(running.schema!.client, 50);
    }
    expect(mismatches).toEqual([]);
  });

  it('answers the conflicts of the spec’s flows as documented', async () => {
    const owner = { 'x-api-secret': resources.merchant.apiSecret };
    const sent: Sent[] = [
      { method: 'POST', path: `/v1/trdp/escrow/${resources.pendingEscrowId}/release`, headers: owner, body: { merchantId: resources.merchant.seller1 } },
      { method: 'POST', path: `/v1/trdp/escrow/${resources.heldEscrowId}/release`, headers: owner, body: { merchantId: 'nobody' } },
      { method: 'POST', path: `/v1/trdp/order/${resources.paidOrderId}/refund`, headers: owner, body: { amount: 1_000_000, reason: 'too much' } },
      { method: 'POST', path: '/v1/trdp/verify', headers: owner, body: { orderId: 'unknown-order' } },
      { method: 'POST', path: '/v1/trdp/escrow/order', headers: owner, body: { amount: 1 } },
    ];
    const replayed = { ...owner, 'idempotency-key': `contract-${Date.now()}` };
    sent.push({ method: 'POST', path: `/v1/trdp/escrow/${resources.escrowToCancelId}/dispute`, headers: replayed, body: { reason: 'first' } });
    sent.push({ method: 'POST', path: `/v1/trdp/escrow/${resources.escrowToCancelId}/dispute`, headers: replayed, body: { reason: 'another body' } });
    sent.push({ method: 'POST', path: '/v1/trdp/escrow/order', headers: owner, rawBody: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }) });
    const mismatches: string[] = [];
    for (const request of sent) mismatches.push(...check(await exchange(request)));
    expect(mismatches).toEqual([]);
  });

  it('answers a payout, its list, detail and report as documented', async () => {
    // The other merchant has paid nothing out yet: an allocation of its own released, its first payout is certain to be made.
    const seller = { 'x-api-secret': resources.otherMerchant.apiSecret };
    const allocations = [{ merchantId: resources.otherMerchant.merchantId, amount: 600.5 }, { merchantId: resources.merchant.merchantId, amount: 400 }];
    const escrowId = (await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined, allocations }), headers: seller })).body.data.escrowId;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers: seller });
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: seller })).body?.data?.status === 'HELD', 'the escrow to be held');
    const steps: Sent[] = [
      { method: 'POST', path: `/v1/trdp/escrow/${escrowId}/release`, headers: seller, body: { merchantId: resources.otherMerchant.merchantId } },
      { method: 'POST', path: '/v1/trdp/payout-destination', headers: seller, body: { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Contract Shop' } },
    ];
    const mismatches: string[] = [];
    for (const step of steps) mismatches.push(...check(await exchange(step)));
    const requested = await exchange({ method: 'POST', path: '/v1/trdp/payouts', headers: seller, body: {} });
    expect(requested.status).toBe(201);
    mismatches.push(...check(requested));
    const payoutId = (requested.responseBody as { data: { payoutId: string } }).data.payoutId;
    const reads = ['/v1/trdp/payouts', `/v1/trdp/payouts/${payoutId}`, `/v1/trdp/payouts/${payoutId}/movements?limit=1`, `/v1/trdp/payouts/${payoutId}/report`, `/v1/trdp/payouts/${payoutId}/report.csv`];
    for (const path of reads) {
      const read = await exchange({ method: 'GET', path, headers: seller });
      expect(read.status).toBe(200);
      mismatches.push(...check(read));
    }
    const unknownCursor = await exchange({ method: 'GET', path: `/v1/trdp/payouts/${payoutId}/movements?startingAfter=no-such-event`, headers: seller });
    expect(unknownCursor.status).toBe(400);
    mismatches.push(...check(unknownCursor));
    expect(mismatches).toEqual([]);
  });

  it('answers the accounts that owe their platform, and a statement below zero, as documented', async () => {
    const owner = { 'x-api-secret': resources.merchant.apiSecret };
    const created = await exchange({ method: 'POST', path: '/v1/trdp/accounts', headers: owner, body: { name: 'Contract Debtor', type: 'individual' } });
    const { accountId } = (created.responseBody as { data: { accountId: string } }).data;
    const penalty = await exchange({ method: 'POST', path: '/v1/trdp/transfers', headers: owner, body: { from: accountId, amount: 5, description: 'Penalty', allowNegative: true } });
    expect(penalty.status).toBe(201);
    await waitFor(
      async () => (await call(running.baseUrl, 'GET', '/v1/trdp/accounts?balance=negative', { headers: owner })).body.data.accounts.some((a: { accountId: string }) => a.accountId === accountId),
      'the penalty to take the account below zero',
    );
    const mismatches = [...check(created), ...check(penalty)];
    const period = `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;
    const reads: Sent[] = [
      { method: 'GET', path: '/v1/trdp/accounts?balance=negative&status=PENDING_VERIFICATION&limit=5', headers: owner },
      { method: 'GET', path: '/v1/trdp/accounts?balance=overdrawn', headers: owner },
      { method: 'GET', path: `/v1/trdp/statement?${period}`, headers: { ...owner, 'x-account-id': accountId } },
    ];
    for (const read of reads) mismatches.push(...check(await exchange(read)));
    expect(mismatches).toEqual([]);
  });

  it('answers the events API as documented: its pages, one event, and every refusal', async () => {
    const owner = { 'x-api-secret': resources.merchant.apiSecret };
    const listed = await exchange({ method: 'GET', path: '/v1/trdp/events?order=asc&limit=100', headers: owner });
    const events = (listed.responseBody as { data: { events: Array<{ id: string; type: string }> } }).data.events;
    // The seeded orders and escrows were paid, released and cancelled: the payloads of those types are checked against their schemas.
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['PAID', 'RELEASED', 'CANCELLED']));
    const queries = [
      'limit=1',
      `order=asc&limit=2&startingAfter=${events[0].id}`,
      'type=RELEASED&createdAfter=2026-01-01T00:00:00Z&createdBefore=2999-01-01T00:00:00%2B03:00',
      'type=NOPE',
      'type=PAID&type=FAILED',
      'order=sideways',
      'limit=0',
      'createdAfter=yesterday',
      'startingAfter=evt_unknown',
    ];
    const mismatches = check(listed);
    for (const query of queries) mismatches.push(...check(await exchange({ method: 'GET', path: `/v1/trdp/events?${query}`, headers: owner })));
    for (const event of events) mismatches.push(...check(await exchange({ method: 'GET', path: `/v1/trdp/events/${event.id}`, headers: owner })));
    expect(mismatches).toEqual([]);
  });

  it('refuses x-account-id with 400 ACCOUNT_HEADER_NOT_ACCEPTED on exactly the operations that do not declare it', async () => {
    const owner = { 'x-api-secret': resources.merchant.apiSecret, 'x-account-id': resources.accountId };
    const mismatches: string[] = [];
    const refusedWrongly: string[] = [];
    for (const { operation, sent } of grantedRequests()) {
      const declared = document.paths[operation.path][operation.method.toLowerCase()];
      if (!declared.security?.some((requirement: Document) => 'merchant' in requirement)) continue;
      const takesHeader = declared.parameters?.some((parameter: Document) => parameter.name === 'x-account-id');
      const answer = await exchange({ ...sent, headers: owner });
      mismatches.push(...check(answer));
      const refused = answer.status === 400 && (answer.responseBody as { error?: { code?: string } }).error?.code === 'ACCOUNT_HEADER_NOT_ACCEPTED';
      if (refused === Boolean(takesHeader)) refusedWrongly.push(`${operation.method} ${operation.path} (declares x-account-id: ${Boolean(takesHeader)}) → ${answer.status}`);
      if (operation.method === 'POST') await waitForQuiet(running.schema!.client, 50);
    }
    expect(mismatches).toEqual([]);
    expect(refusedWrongly).toEqual([]);
  });

  it('refuses a malformed path parameter with 400, and any write to the audit API with 405 AUDIT_READ_ONLY, as documented', async () => {
    const mismatches: string[] = [];
    const answered: string[] = [];
    for (const { operation, request, sent } of grantedRequests()) {
      if (!operation.path.includes('{')) continue;
      const index = operation.path.split('/').findIndex((segment) => segment.startsWith('{'));
      for (const value of MALFORMED_PARAMETERS) {
        const [pathname, query] = request.path.split('?');
        const segments = pathname.split('/');
        segments[index] = value;
        const answer = await exchange({ ...sent, path: segments.join('/') + (query ? `?${query}` : ''), direct: value === MALFORMED_ENCODING });
        mismatches.push(...check(answer));
        answered.push(`${operation.method} ${operation.path} ${value} → ${answer.status}`);
      }
    }
    expect(answered.filter((line) => !line.endsWith('→ 400'))).toEqual([]);
    const writes = refusalsOnly();
    expect(writes.length).toBe(AUDIT_WRITES.length * Object.keys(document.paths).filter((path) => path.startsWith('/v1/audit')).length);
    for (const { method, path } of writes) {
      const concrete = path.replace(/\{[^}]+\}/g, 'x');
      for (const headers of [{ 'x-auditor-key': resources.auditorKey }, { ...PROBLEM_DETAILS }] as Array<Record<string, string>>) {
        const answer = await exchange({ method, path: concrete, headers, ...(method === 'DELETE' ? {} : { body: {} }) });
        expect([`${method} ${concrete}`, answer.status, answer.responseHeaders?.allow]).toEqual([`${method} ${concrete}`, 405, 'GET, HEAD']);
        mismatches.push(...check(answer));
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('answers a refusal as the envelope in application/json, or as RFC 9457 problem details when Accept prefers them', async () => {
    const path = '/v1/trdp/escrow/unknown-id';
    const headers = { 'x-api-secret': resources.merchant.apiSecret };
    const envelope = { status: 'error', timestamp: expect.any(String), path, message: expect.any(String), error: { code: 'ABC_001', message: expect.any(String) } };
    const details = { type: 'urn:escrow-ledger:problem:ABC_001', title: 'Not Found', status: 404, detail: expect.any(String), instance: path, code: 'ABC_001', timestamp: expect.any(String), path, message: expect.any(String), error: { code: 'ABC_001', message: expect.any(String) } };
    const cases: Array<[string | undefined, string, unknown]> = [
      [undefined, 'application/json', envelope],
      ['*/*', 'application/json', envelope],
      ['application/json', 'application/json', envelope],
      ['application/json, application/problem+json;q=0.5', 'application/json', envelope],
      ['application/problem+json', 'application/problem+json', details],
      ['application/problem+json, application/json;q=0.9', 'application/problem+json', details],
      ['application/json;q=0.5, application/problem+json', 'application/problem+json', details],
    ];
    const mismatches: string[] = [];
    for (const [accept, mediaType, body] of cases) {
      const answer = await exchange({ method: 'GET', path, headers: { ...headers, ...(accept ? { accept } : {}) }, direct: mediaType === 'application/problem+json' });
      expect([accept, answer.status, answer.contentType, answer.responseBody]).toEqual([accept, 404, `${mediaType}; charset=utf-8`, body]);
      mismatches.push(...check(answer));
    }
    // A refusal kept for an Idempotency-Key replays in the shape the replay asks for.
    const replayed = { ...headers, 'idempotency-key': `shapes-${Date.now()}` };
    const release = { method: 'POST', path: `/v1/trdp/escrow/${resources.pendingEscrowId}/release`, body: { merchantId: resources.merchant.seller1 } };
    const first = await exchange({ ...release, headers: replayed });
    const again = await exchange({ ...release, headers: { ...replayed, ...PROBLEM_DETAILS } });
    expect([first.status, first.contentType]).toEqual([409, 'application/json; charset=utf-8']);
    expect([again.status, again.contentType, again.responseHeaders?.['idempotent-replayed']]).toEqual([409, 'application/problem+json; charset=utf-8', 'true']);
    const kept = first.responseBody as { timestamp: string; error: { code: string } };
    expect(again.responseBody).toMatchObject({ status: 409, code: kept.error.code, timestamp: kept.timestamp, error: kept.error });
    mismatches.push(...check(first), ...check(again));
    expect(mismatches).toEqual([]);
  });

  it('fails an answer with a field, a status or an error code the document lacks', async () => {
    const read = await exchange({ method: 'GET', path: `/v1/trdp/escrow/${resources.heldEscrowId}`, headers: { 'x-api-secret': resources.merchant.apiSecret } });
    expect(check(read)).toEqual([]);
    const body = read.responseBody as { data: Record<string, unknown> };
    expect(check({ ...read, responseBody: { ...body, data: { ...body.data, undocumentedField: 1 } } }).join('\n')).toMatch(/undocumentedField/);
    expect(check({ ...read, status: 418 }).join('\n')).toMatch(/status not documented/);
    // Formats too: a date-time that is not one.
    expect(check({ ...read, responseBody: { ...body, timestamp: 'yesterday' } }).join('\n')).toMatch(/"keyword":"format","params":{"format":"date-time"}/);
    const refused = await exchange({ method: 'GET', path: '/v1/trdp/escrow/unknown-id', headers: { 'x-api-secret': resources.merchant.apiSecret } });
    expect(check(refused)).toEqual([]);
    const problem = refused.responseBody as { error: { code: string } };
    expect(check({ ...refused, responseBody: { ...problem, error: { ...problem.error, code: 'UNDOCUMENTED_CODE' } } }).join('\n')).toMatch(/allowedValues|enum/);
  });

  it('has an example of every operation’s request and success answer, and none of an operation it lacks', () => {
    expect(operationsWithoutExamples(document)).toEqual([]);
    const operations = Object.entries<Record<string, unknown>>(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(Object.keys(OPERATION_EXAMPLES).filter((operation) => !operations.includes(operation))).toEqual([]);
    // What a route added without its example (apps/api/src/http/openapi/examples/index.ts gathers them) looks like to this test.
    const withoutOne = structuredClone(document);
    delete withoutOne.paths['/v1/trdp/balance'].get.responses['200'].content['application/json'].example;
    delete withoutOne.paths['/v1/trdp/transfers'].post.requestBody.content['application/json'].example;
    expect(operationsWithoutExamples(withoutOne)).toEqual(['GET /v1/trdp/balance: no example of its 200 answer', 'POST /v1/trdp/transfers: no example of its request body']);
  });

  it('states every callback payload, as a webhook and as the callbacks of the operations that register a callbackURL', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.webhooks).sort()).toEqual([...CALLBACK_TYPES, 'TEST'].sort());
    // The schemas callback-payloads.spec.ts checks every built payload against, as they are (in OpenAPI 3.1's words for null).
    for (const [name, schema] of Object.entries(CALLBACK_PAYLOAD_SCHEMAS)) {
      const as31 = asOpenApi31({ paths: {}, components: { schemas: { [name]: structuredClone(schema) } } } as unknown as Parameters<typeof asOpenApi31>[0]);
      expect(document.components.schemas[name]).toEqual(as31.components!.schemas![name]);
    }
    const registering = Object.entries<Record<string, Document>>(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) => Object.keys(operation.callbacks ?? {}).map((name) => `${method.toUpperCase()} ${path} ${name}`)),
    );
    expect(registering.sort()).toEqual([
      'POST /v1/trdp/accounts AccountCallback',
      'POST /v1/trdp/escrow/order EscrowCallback',
      'POST /v1/trdp/order OrderCallback',
      'POST /v1/trdp/payout-settings PayoutCallback',
    ]);
  });

  it('passes Redocly’s recommended rules with no error', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'openapi-'));
    try {
      const file = join(folder, 'openapi.json');
      await writeFile(file, JSON.stringify(document));
      // The CLI reports usage and looks for updates over the network unless told not to.
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
      const result = await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'redocly'), ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'], { cwd: ROOT, env }).catch(
        (error: { stdout: string; stderr: string }) => error,
      );
      const report = JSON.parse(result.stdout) as { totals: { errors: number }; problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }> };
      const errors = report.problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`);
      expect(errors).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('answers every documented route past the rate limit with 429 RATE_LIMITED and Retry-After, as documented', async () => {
    // A second service on the same data whose limit is one request a minute: the first request of
    // each key (or, without one, of the client address) may pass, every later one in the window is refused.
    const limited = await startApp({ schema, env: { ...FAST_SANDBOX, RATE_LIMIT_PER_MINUTE: '1' } });
    try {
      const mismatches: string[] = [];
      for (const { sent } of grantedRequests()) {
        const refused = await waitFor(async () => {
          const answer = await exchange(sent, limited.baseUrl);
          return answer.status === 429 && answer;
        }, `${sent.method} ${sent.path} to be rate limited`);
        expect(refused.responseHeaders?.['retry-after']).toMatch(/^\d+$/);
        mismatches.push(...check(refused));
      }
      expect(mismatches).toEqual([]);
    } finally {
      await limited.stop();
    }
  });

  // Last but the summary: it takes the database away from the service.
  it('answers every documented route with 503 DATABASE_UNAVAILABLE and Retry-After while the database is gone, as documented', async () => {
    await waitForQuiet(running.schema!.client);
    await proxy.cut();
    try {
      const mismatches: string[] = [];
      const answered: string[] = [];
      for (const { sent } of grantedRequests()) {
        const answer = await exchange(sent);
        mismatches.push(...check(answer));
        const code = (answer.responseBody as { error?: { code?: string } }).error?.code;
        answered.push(`${sent.method} ${sent.path.split('?')[0]} → ${answer.status} ${code ?? ''}`.trim());
        if (answer.status === 503 && code) expect(answer.responseHeaders?.['retry-after']).toMatch(/^\d+$/);
      }
      expect(mismatches).toEqual([]);
      // The walk's provider notification carries no signature, refused before the database is asked; the
      // liveness probe needs no database; the readiness report says it is down in its own shape.
      expect(answered.filter((line) => !line.endsWith('→ 503 DATABASE_UNAVAILABLE'))).toEqual([
        'POST /v1/providers/sandbox/notifications → 401 AUTH_001',
        'GET /health/live → 200',
        'GET /health/ready → 503',
      ]);
    } finally {
      await proxy.restore();
    }
  });

  it('passes Stoplight Prism, in front of the service for every exchange above, with no violation', () => {
    // A request sent to be refused breaks the document on purpose (no key, a body it does not take);
    // one the service accepted must not. Every answer must be as documented, refusals included.
    const found = proxied.flatMap(({ method, path, status, violations }) =>
      violations
        .filter((violation) => violation.location[0] === 'response' || status < 400)
        .map((violation) => `${method} ${path.slice(0, 100)} → ${status}: ${violation.location.join('.')} ${violation.message}`),
    );
    // As the router does: a literal segment wins over a parameter (`/payouts/pause` is not `/payouts/{payoutId}`).
    const operationOf = (method: string, url: string) => {
      const segments = url.split('?')[0].split('/');
      const parameters = (candidate: string) => candidate.split('/').filter((segment) => segment.startsWith('{')).length;
      const path = Object.keys(document.paths)
        .filter((candidate) => candidate.split('/').length === segments.length && candidate.split('/').every((segment, index) => segment.startsWith('{') || segment === segments[index]))
        .filter((candidate) => document.paths[candidate]?.[method.toLowerCase()])
        .sort((a, b) => parameters(a) - parameters(b))[0];
      return path ? `${method} ${path}` : undefined;
    };
    const operations = new Set(proxied.flatMap(({ method, path }) => operationOf(method, path) ?? []));
    console.info(`Prism: ${proxied.length} exchanges, ${operations.size} operations, ${found.length} violations`);
    const documented = Object.values<Document>(document.paths).flatMap((methods) => Object.keys(methods)).length;
    expect({ manyExchanges: proxied.length > 500, operations: operations.size, violations: found }).toEqual({ manyExchanges: true, operations: documented, violations: [] });
  });
});
