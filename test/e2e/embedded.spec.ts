import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DemoMerchantService } from '@app/features/merchants';
import { startApp } from '../support/app';
import { ConsoleClient } from '../support/console-client';
import { escrowRequest, orderRequest, withSellers } from '../support/fixtures';
import { call } from '../support/http';

/** The default a new user gets from `npm start`: PGlite in DATA_DIR, no servers, a demo merchant. */
describe('embedded PGlite default', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'escrow-embedded-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs the happy path, and keeps data and the demo merchant across a restart', async () => {
    const env = { DEMO_MERCHANT: 'true', SECRETS_KEY: '' };
    const first = await startApp({ embeddedDataDir: dataDir, env });
    const demo = (await first.app.get(DemoMerchantService).ensure())!;
    expect(demo.apiSecret).toMatch(/^sk_/);
    const headers = { 'x-api-secret': demo.apiSecret };
    await withSellers(first.baseUrl, demo);
    const request = escrowRequest();
    const escrow = await call(first.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: request, headers });
    expect(escrow.status).toBe(201);
    expect(escrow.body.data.status).toBe('PENDING');
    const order = await call(first.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest(), headers });
    expect(order.status).toBe(201);
    const verify = await call(first.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: request.orderId }, headers });
    expect(verify.body.data).toMatchObject({ status: 'PENDING', escrow_status: 'PENDING', escrow_id: escrow.body.data.escrowId });
    await first.stop();

    // The generated key and the demo credentials are private files beside the database.
    expect(statSync(join(dataDir, 'secrets.key')).mode & 0o077).toBe(0);
    expect(statSync(join(dataDir, 'demo-merchant.json')).mode & 0o077).toBe(0);

    const second = await startApp({ embeddedDataDir: dataDir, env });
    try {
      const again = await second.app.get(DemoMerchantService).ensure();
      expect(again).toEqual(demo);
      const got = await call(second.baseUrl, 'GET', `/v1/trdp/escrow/${escrow.body.data.escrowId}`, { headers });
      expect(got.status).toBe(200);
      expect(got.body.data.allocations.map((a: { status: string }) => a.status)).toEqual(['PENDING', 'PENDING']);
      const gotOrder = await call(second.baseUrl, 'GET', `/v1/trdp/order/${order.body.data.order_id}`, { headers });
      expect(gotOrder.body.data.status).toBe('PENDING');
      // The dashboard sign-in printed with the demo merchant works too, after the restart.
      const browser = new ConsoleClient(second.baseUrl);
      const signedIn = await browser.post('/dashboard/sign-in', demo.dashboard, { csrfFrom: '/dashboard/sign-in' });
      expect(signedIn.status).toBe(303);
      expect((await browser.get('/dashboard/api-keys')).text).toContain(demo.apiSecret.slice(-4));
    } finally {
      await second.stop();
    }
    // Two starts of the embedded database: alone about ten seconds, far more beside the rest of the suite.
  });
});
