/**
 * The tenant isolation matrix (issue 37, item 2): as platform A, every route that moves or redirects
 * money, in the API, in the dashboard's forms (A's owner, and A's seller signed in) and on the hosted
 * onboarding page (A's seller, through A's account link), is tried
 * against the other tenants' parties, by header, by body and by path, following
 * test/support/tenant-isolation.ts. Each attempt must be refused as the route refuses a party it does
 * not know, write nothing, and leave B's, B's sellers', C's and L's balances as they were
 * (docs/concepts/authority.md). Each route's control, A acting on its own party, must then succeed.
 */
import { servedRoutes } from '../../apps/api/src/app.factory';
import { type RunningApp, startApp } from '../support/app';
import { countWrites } from '../support/fixtures';
import { createRedisPrefix } from '../support/redis';
import { FAST_SANDBOX, waitForQuiet } from '../support/seeded-resources';
import {
  type Attempt,
  foreignBalances,
  foreignParties,
  ISOLATION,
  type IsolationEntry,
  NOT_FOUND,
  type Refusal,
  seedWorld,
  UNKNOWN_FIELD,
  type World,
} from '../support/tenant-isolation';

interface Probe {
  entry: IsolationEntry;
  label: string;
  attempt: Attempt;
  refusal: Refusal;
}

/** Every attempt an entry makes against the other tenants. */
function probesOf(entry: IsolationEntry, w: World): Probe[] {
  const probes: Probe[] = [];
  const control = entry.control?.(w);
  if (control && entry.surface === 'api') {
    // B's seller, and the merchant linked to A: a link lets A move L's money, never act as L.
    for (const [name, id] of [["B's seller", w.b.seller1], ['linked merchant L', w.linked.merchantId]]) {
      probes.push({ entry, label: `x-account-id: ${name}`, attempt: { ...control, headers: { 'x-account-id': id } }, refusal: NOT_FOUND });
    }
  }
  if (control) {
    const field = entry.unknownField ?? 'merchantId';
    probes.push({ entry, label: `undeclared field ${field}: B's seller`, attempt: { ...control, body: { ...control.body, [field]: w.b.seller1 } }, refusal: UNKNOWN_FIELD });
  }
  for (const party of entry.parties ?? []) {
    for (const foreign of foreignParties(w)) probes.push({ entry, label: `${party.field}: ${foreign.name}`, attempt: party.naming(w, foreign.id), refusal: party.refusal });
  }
  for (const attempt of entry.paths?.(w) ?? []) probes.push({ entry, label: `path ${attempt.path}`, attempt, refusal: entry.pathRefusal ?? NOT_FOUND });
  for (const other of entry.others?.(w) ?? []) probes.push({ entry, ...other });
  return probes;
}

/** What an answer says, in a line: a problem's message, or a page's main text. */
function said(text: string): string {
  const main = /<main[\s\S]*<\/main>/.exec(text)?.[0] ?? text;
  return main.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
}

describe("tenant isolation: every money route, by header, body and path, as one platform against another's parties", () => {
  let running: RunningApp;
  let redis: Awaited<ReturnType<typeof createRedisPrefix>>;
  let world: World;

  beforeAll(async () => {
    // On Redis, as the authorization matrix: waitForQuiet does not see jobs queued in PostgreSQL.
    redis = await createRedisPrefix();
    running = await startApp({ env: { ...FAST_SANDBOX, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, CALLBACK_RETRY_SCHEDULE_MS: '3600000' } });
    world = await seedWorld(running);
    await waitForQuiet(running.schema!.client);
  });
  afterAll(async () => {
    await world?.close();
    await running?.close();
    await redis?.drop();
  });

  /** Sends an attempt as A: its key (API), its owner's session or its seller's (dashboard). */
  async function send(entry: IsolationEntry, attempt: Attempt): Promise<{ status: number; contentType: string; text: string }> {
    if (entry.surface === 'api' && attempt.multipart) {
      const form = new FormData();
      for (const [name, value] of Object.entries({ ...attempt.body, ...attempt.multipart })) form.append(name, value instanceof Blob ? value : String(value));
      const response = await fetch(`${running.baseUrl}${attempt.path}`, { method: 'POST', headers: { 'x-api-secret': world.a.apiSecret, ...attempt.headers }, body: form });
      return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
    }
    if (entry.surface === 'api') {
      const body = attempt.body === undefined ? undefined : JSON.stringify(attempt.body);
      const response = await fetch(`${running.baseUrl}${attempt.path}`, {
        method: attempt.method ?? 'POST',
        headers: { 'x-api-secret': world.a.apiSecret, ...(body ? { 'content-type': 'application/json' } : {}), ...attempt.headers },
        body,
      });
      return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
    }
    const browser = entry.surface === 'seller' ? world.a.seller : entry.surface === 'onboarding' ? world.a.onboarding : world.a.owner;
    const form = Object.fromEntries(Object.entries(attempt.body ?? {}).map(([name, value]) => [name, String(value)]));
    const page = attempt.method === 'GET' ? await browser.get(attempt.path) : await browser.post(attempt.path, form, { csrfFrom: attempt.csrfFrom });
    return { status: page.status, contentType: page.headers.get('content-type') ?? '', text: page.text };
  }

  const routeOf = (entry: IsolationEntry) => `${entry.surface} ${entry.route}`;

  it('has an entry for every POST and DELETE route of the merchant API and the dashboard, each with a control or a reason for none', () => {
    const served = servedRoutes(running.app).map(({ method, url }) => `${method} ${url}`);
    const writes = served.filter((route) => /^(POST|DELETE) \/(v1\/trdp|v1\/sandbox|dashboard|onboarding)(\/|$)/.test(route));
    // Signing in and out and accepting an invitation name no party: the session is the party.
    const identity = ['POST /dashboard/sign-in', 'POST /dashboard/sign-out', 'POST /dashboard/invitation'];
    const covered = new Set(ISOLATION.filter((entry) => entry.surface !== 'seller').map((entry) => entry.route));
    expect({ withoutAnEntry: writes.filter((route) => !covered.has(route) && !identity.includes(route)) }).toEqual({ withoutAnEntry: [] });
    expect({ notServed: [...covered].filter((route) => !served.includes(route)) }).toEqual({ notServed: [] });
    expect(ISOLATION.filter((entry) => !entry.control && !entry.noControl).map(routeOf)).toEqual([]);
  });

  it("refuses every attempt on another tenant's parties, writes nothing and moves no one's money; A's own requests succeed", async () => {
    const db = running.schema!.client;
    const balancesBefore = await foreignBalances(running.baseUrl, world);
    const mismatches: string[] = [];
    let probeCount = 0;
    for (const entry of ISOLATION) {
      for (const probe of probesOf(entry, world)) {
        probeCount += 1;
        const label = `${routeOf(entry)} ${probe.label}`;
        const before = await countWrites(db);
        const res = await send(entry, probe.attempt);
        const code = entry.surface === 'api' && /^application\/json/.test(res.contentType) ? (JSON.parse(res.text).error?.code as string | undefined) : undefined;
        const page = entry.surface !== 'api' && res.contentType.startsWith('text/html');
        if (res.status !== probe.refusal.status || (entry.surface === 'api' ? code !== probe.refusal.code : !page)) {
          mismatches.push(`${label}: expected ${probe.refusal.status} ${probe.refusal.code ?? 'page'}, got ${res.status} ${code ?? ''} ${said(res.text)}`);
        }
        if (JSON.stringify(await countWrites(db)) !== JSON.stringify(before)) {
          mismatches.push(`${label}: answered ${res.status} and wrote something`);
          await waitForQuiet(db);
        }
      }
      const balances = await foreignBalances(running.baseUrl, world);
      if (JSON.stringify(balances) !== JSON.stringify(balancesBefore)) mismatches.push(`${routeOf(entry)}: another tenant's balance changed: ${JSON.stringify(balances)}`);
    }
    // Then A on its own parties, one at a time, each settled before the next.
    let controls = 0;
    for (const entry of ISOLATION) {
      const control = entry.control?.(world);
      if (!control) continue;
      controls += 1;
      const res = await send(entry, control);
      if (res.status !== control.status) mismatches.push(`${routeOf(entry)} control: expected ${control.status}, got ${res.status} ${said(res.text)}`);
      await waitForQuiet(db, 100);
    }
    expect(mismatches).toEqual([]);
    expect(await foreignBalances(running.baseUrl, world)).toEqual(balancesBefore);
    expect(probeCount).toBeGreaterThan(150);
    expect(controls).toBeGreaterThan(40);
  });
});
