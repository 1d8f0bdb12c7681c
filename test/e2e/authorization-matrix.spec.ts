/**
 * The authorization matrix (issue 8, item 3): every route the app serves × every credential, against
 * the decisions in test/support/route-access.ts. A served route without a decision fails, naming it.
 *
 * Resource routes are addressed at real orders, escrows and deliveries of one merchant, so "another
 * merchant's key" is tried on things that exist (and must still be 404: docs/reference/api.md). Refusals are
 * checked to write nothing; answers under /v1 to be problems with the matching code.
 */
import { servedRoutes } from '../../apps/api/src/app.factory';
import { type RunningApp, startApp } from '../support/app';
import { countWrites } from '../support/fixtures';
import { createRedisPrefix } from '../support/redis';
import { accessFor, type AccessRequest, credentialHeaders, CREDENTIALS, type Credential, GRANTED, type Outcome } from '../support/route-access';
import { FAST_SANDBOX, seedResources, type SeededResources, waitForQuiet } from '../support/seeded-resources';

/** The codes of each refusal: a party the caller has no authority over is not found under the route's own code (docs/concepts/authority.md). */
const CODES_BY_STATUS: Record<number, string[]> = { 401: ['AUTH_001'], 404: ['ABC_001', 'UNKNOWN_TRANSFER_PARTY', 'UNKNOWN_ALLOCATION_MERCHANT'] };

interface Case {
  route: string;
  credential: Credential;
  method: string;
  request: AccessRequest;
  expected: Outcome;
  location?: string;
}

describe('authorization matrix: every route × every credential', () => {
  let running: RunningApp;
  let redis: Awaited<ReturnType<typeof createRedisPrefix>>;
  let resources: SeededResources;

  beforeAll(async () => {
    // With Redis the queue dashboard is mounted too, so its routes are in the matrix.
    redis = await createRedisPrefix();
    running = await startApp({ env: { ...FAST_SANDBOX, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, CALLBACK_RETRY_SCHEDULE_MS: '3600000' } });
    resources = await seedResources(running);
    await waitForQuiet(running.schema!.client);
  });
  afterAll(async () => {
    await resources?.close();
    await running?.close();
    await redis?.drop();
  });

  function cases(): { cases: Case[]; undecided: string[] } {
    const all: Case[] = [];
    const undecided: string[] = [];
    for (const { method, url } of servedRoutes(running.app)) {
      const access = accessFor(method, url);
      if (!access) {
        undecided.push(`${method} ${url}`);
        continue;
      }
      for (const credential of CREDENTIALS) {
        const request = access.request(resources, url);
        all.push({ route: `${method} ${url}`, credential, method, request, expected: access.expect[credential], location: access.location });
      }
    }
    return { cases: all, undecided };
  }

  async function send(c: Case, headers: Record<string, string>) {
    const hasBody = c.request.body !== undefined && c.method !== 'GET' && c.method !== 'HEAD';
    const response = await fetch(`${running.baseUrl}${c.request.path}`, {
      method: c.method,
      redirect: 'manual',
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...headers },
      body: hasBody ? JSON.stringify(c.request.body) : undefined,
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /** Every difference between what a case got and its decision, as one readable line each. */
  async function check(c: Case, mismatches: string[]): Promise<void> {
    for (const headers of credentialHeaders(c.credential, resources)) {
      const label = `${c.route} (${c.method} ${c.request.path.slice(0, 80)}) with ${c.credential}${c.credential === 'malformed' ? ` ${JSON.stringify(headers['x-api-secret'].slice(0, 12))}` : ''}`;
      const before = typeof c.expected === 'number' && c.expected >= 400 ? await countWrites(running.schema!.client) : undefined;
      const res = await send(c, headers);
      const granted = c.expected === GRANTED ? res.status !== 401 && res.status !== 403 && res.status < 500 : res.status === c.expected;
      if (!granted) {
        mismatches.push(`${label}: expected ${c.expected}, got ${res.status} ${res.text.slice(0, 120)}`);
        continue;
      }
      if (c.location && res.status === 303 && res.headers.get('location') !== c.location) {
        mismatches.push(`${label}: redirected to ${res.headers.get('location')}, not ${c.location}`);
      }
      const apiRefusal = c.request.path.startsWith('/v1/') && res.status >= 400;
      if (apiRefusal && c.method !== 'HEAD') {
        const codes = CODES_BY_STATUS[res.status];
        const problem = /^application\/json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(res.text) : undefined;
        if (!problem || (codes && !codes.includes(problem.error?.code))) mismatches.push(`${label}: not a ${codes?.join(' or ') ?? ''} problem: ${res.headers.get('content-type')} ${res.text.slice(0, 120)}`);
      }
      if (before && JSON.stringify(await countWrites(running.schema!.client)) !== JSON.stringify(before)) {
        mismatches.push(`${label}: refused with ${res.status} but wrote something`);
      }
    }
  }

  it('has a decision for every route the app serves', () => {
    const { undecided } = cases();
    expect({ routesWithoutADecision: undecided }).toEqual({ routesWithoutADecision: [] });
  });

  it('answers every route × credential as decided, and a refusal writes nothing', async () => {
    const { cases: all } = cases();
    expect(all.length).toBeGreaterThan(100);
    const mismatches: string[] = [];
    // Refusals first, one at a time, so "nothing written" counts only that request; then what is granted.
    const refusals = all.filter((c) => typeof c.expected === 'number' && c.expected >= 300);
    for (const c of refusals) await check(c, mismatches);
    for (const c of all.filter((c) => !refusals.includes(c))) {
      await check(c, mismatches);
      if (c.method !== 'GET' && c.method !== 'HEAD') await waitForQuiet(running.schema!.client, 100);
    }
    expect(mismatches).toEqual([]);
  });
});
