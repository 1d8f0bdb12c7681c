import { Writable } from 'node:stream';
import { startApp, TEST_ADMIN_KEY } from '../support/app';
import { ConsoleClient, invitationToken } from '../support/console-client';
import { orderRequest } from '../support/fixtures';
import { call } from '../support/http';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { type SplitService, startSplitService, stopAll } from '../support/processes';

/**
 * The faces' wing deployed apart (docs/operations/scaling.md): a process with ROLE=faces serves the dashboard,
 * the audit console, the onboarding page and the checkout without the REST API, one with ROLE=rest the REST API
 * without them, both on one database; and the one process of ROLE=all, which serves both, registers each
 * command and query handler once although both wings import the feature modules.
 */
describe('the faces and the REST API in processes of their own', () => {
  let schema: TestSchema;
  let split: SplitService;
  let rest: string;
  let faces: string;

  beforeAll(async () => {
    schema = await createTestSchema('faces');
    split = await startSplitService(
      {
        DATABASE_URL: schema.url,
        DATABASE_SCHEMA: schema.schema,
        SECRETS_KEY: '45'.repeat(32),
        ADMIN_API_KEY: TEST_ADMIN_KEY,
        RATE_LIMIT_PER_MINUTE: '0',
        CALLBACK_ALLOW_PRIVATE_URLS: 'true',
        DEMO_MERCHANT: 'false',
      },
      { apis: 0, rest: 1, faces: 1, projectors: 1 },
    );
    [rest] = split.rest;
    [faces] = split.faces;
  });

  afterAll(async () => {
    await stopAll(split?.all ?? []);
    await schema?.drop();
  });

  it('serves the pages from the faces process and the REST routes from the API process, each 404 on the other', async () => {
    const registered = await call(rest, 'POST', '/v1/admin/merchants', { body: { name: 'Split Faces Shop' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(registered.status).toBe(201);
    const key = { 'x-api-secret': registered.body.data.apiSecret as string };
    const order = await call(rest, 'POST', '/v1/trdp/order', { body: orderRequest(), headers: key });
    expect(order.status).toBe(201);

    const page = (base: string, path: string) => fetch(`${base}${path}`, { redirect: 'manual' });
    expect((await page(faces, '/dashboard/sign-in')).status).toBe(200);
    const checkout = await page(faces, `/checkout/${order.body.data.order_id}`);
    expect(checkout.status).toBe(200);
    expect(await checkout.text()).toContain('250.75');
    expect((await call(faces, 'GET', '/v1/trdp/webhook-endpoints', { headers: key })).status).toBe(404);
    expect((await call(faces, 'POST', '/v1/trdp/order', { body: orderRequest(), headers: key })).status).toBe(404);
    expect((await page(faces, '/docs-json')).status).toBe(404);

    expect((await call(rest, 'GET', '/v1/trdp/webhook-endpoints', { headers: key })).status).toBe(200);
    expect((await page(rest, '/docs-json')).status).toBe(200);
    expect((await page(rest, '/dashboard/sign-in')).status).toBe(404);
    expect((await page(rest, `/checkout/${order.body.data.order_id}`)).status).toBe(404);
    // Both answer the operators' health check.
    expect((await page(faces, '/health/live')).status).toBe(200);
    expect((await page(rest, '/health/live')).status).toBe(200);
  });

  it('makes what a merchant does on the faces process visible through the API process', async () => {
    const registered = await call(rest, 'POST', '/v1/admin/merchants', {
      body: { name: 'Split Dashboard Shop', email: `faces-wing-${Date.now()}@shop.example` },
      headers: { 'x-admin-key': TEST_ADMIN_KEY },
    });
    expect(registered.status).toBe(201);
    const browser = new ConsoleClient(faces);
    const password = 'correct horse battery staple';
    const accepted = await browser.post('/dashboard/invitation', { token: invitationToken(registered.body.data.invitationUrl), password, confirm: password }, { csrfFrom: '/dashboard/invitation' });
    expect(accepted.status).toBe(303);

    const created = await browser.post('/dashboard/webhook-endpoints', { url: 'https://shop.example/hooks/split', description: 'From the faces process', 'event:PAYOUT_PAID': 'on' }, { csrfFrom: '/dashboard/webhook-endpoints' });
    expect(created.status).toBe(200);
    const listed = await call(rest, 'GET', '/v1/trdp/webhook-endpoints', { headers: { 'x-api-secret': registered.body.data.apiSecret } });
    expect(listed.status).toBe(200);
    expect(listed.body.data.endpoints).toEqual([expect.objectContaining({ url: 'https://shop.example/hooks/split', events: ['PAYOUT_PAID'], description: 'From the faces process', disabled: false })]);
  });
});

describe('one process serving both wings (ROLE=all)', () => {
  it('registers every command and query handler once', async () => {
    const lines: string[] = [];
    const logs = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const running = await startApp({ env: { ROLE: 'all', LOG_LEVEL: 'debug' }, logDestination: logs });
    try {
      // The capture sees Nest's own lines, its start-up ones at debug (libs/infrastructure/src/logging.ts).
      expect(lines.some((line) => line.includes('Nest application successfully started'))).toBe(true);
      expect(lines.filter((line) => /already registered|overriding previously registered/i.test(line))).toEqual([]);
    } finally {
      await running.close();
    }
  });
});
