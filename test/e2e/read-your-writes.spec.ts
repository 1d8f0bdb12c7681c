import { type RunningApp, startApp } from '../support/app';
import { escrowRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { waitFor } from '../support/wait';

/**
 * A release answers once its escrow's own view shows it (written in the append's transaction),
 * without waiting for the projector; what only the projector writes (here the merchant's statement,
 * from the ledger) is read once the projector has caught up with every write answered before the
 * read. Run with the projector stopped, so that a wait in the wrong place shows as a request that
 * never answers.
 */
describe('read-your-writes where the projector’s views are read', () => {
  let schema: TestSchema;
  let api: RunningApp | undefined;
  let projector: RunningApp | undefined;
  let merchant: TestMarketplace;
  let escrowId: string;
  const as = () => ({ 'x-api-secret': merchant.apiSecret });

  beforeAll(async () => {
    schema = await createTestSchema('ryw');
    // The whole service pays an escrow whose allocation is the merchant's own, then stops.
    const whole = await startApp({ schema, env: { SANDBOX_DELAY_MS: '30' } });
    merchant = await registerMarketplace(whole.baseUrl, 'Own Seller');
    const allocations = [{ merchantId: merchant.merchantId, amount: 600.5 }, { merchantId: merchant.courier1, amount: 400 }];
    const created = await call(whole.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined, allocations }), headers: as() });
    escrowId = created.body.data.escrowId;
    expect((await call(whole.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers: as() })).status).toBe(200);
    await waitFor(async () => (await call(whole.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: as() })).body.data.status === 'HELD', 'the escrow to be paid');
    await whole.stop();
    // An API alone: no projector runs, and the statement waits for one as long as the service allows (60 s).
    api = await startApp({ schema, env: { ROLE: 'api', READ_YOUR_WRITES_TIMEOUT_MS: '60000' } });
  });

  afterAll(async () => {
    await projector?.stop();
    await api?.stop();
    await schema?.drop();
  });

  it('answers the release from the escrow’s own view, and holds the statement until the projector has the release', async () => {
    const released = await call(api!.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: merchant.merchantId }, headers: as() });
    expect(released.status).toBe(200);
    const escrow = await call(api!.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: as() });
    expect(escrow.body.data.allocations.find((a: { merchantId: string }) => a.merchantId === merchant.merchantId)).toMatchObject({ status: 'RELEASED' });

    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    let answered = false;
    const statement = call(api!.baseUrl, 'GET', `/v1/trdp/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, { headers: as() }).finally(() => {
      answered = true;
    });
    // Requests on the inline view go on meanwhile; the statement cannot answer while no projector runs.
    expect((await call(api!.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: escrowId }, headers: as() })).status).toBe(200);
    expect(answered).toBe(false);

    projector = await startApp({ schema, env: { ROLE: 'projector' } });
    const result = await statement;
    expect(result.status).toBe(200);
    expect(result.body.data.movements.map((m: { amount: number }) => m.amount)).toEqual([600.5]);
    expect(result.body.data.closing).toBe(600.5);
  });
});

/**
 * A reversal (libs/payments/src/escrows/reverse-allocation-at-books.ts) appends to the escrow and the
 * payee's books together: the escrow's view is written in that append, as every other escrow command's
 * is, so the escrow read right after it shows the money taken back though no projector runs (the wait
 * for the books' views runs out at once here, and the request goes on without them).
 */
describe('read-your-writes of a reversal, with no projector running', () => {
  let schema: TestSchema;
  let api: RunningApp | undefined;
  let merchant: TestMarketplace;
  let escrowId: string;
  const as = () => ({ 'x-api-secret': merchant.apiSecret });

  beforeAll(async () => {
    schema = await createTestSchema('ryw_reversal');
    const whole = await startApp({ schema, env: { SANDBOX_DELAY_MS: '30' } });
    merchant = await registerMarketplace(whole.baseUrl, 'Returns Market');
    const allocations = [{ merchantId: merchant.merchantId, amount: 600.5 }, { merchantId: merchant.courier1, amount: 400 }];
    escrowId = (await call(whole.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined, allocations }), headers: as() })).body.data.escrowId;
    expect((await call(whole.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers: as() })).status).toBe(200);
    await waitFor(async () => (await call(whole.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: as() })).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await call(whole.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: merchant.merchantId }, headers: as() })).status).toBe(200);
    await whole.stop();
    api = await startApp({ schema, env: { ROLE: 'api', READ_YOUR_WRITES_TIMEOUT_MS: '1' } });
  });

  afterAll(async () => {
    await api?.stop();
    await schema?.drop();
  });

  it('shows the money taken back on the escrow read right after the reversal', async () => {
    const reversed = await call(api!.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/reversals`, { body: { merchantId: merchant.merchantId, amount: 100, reason: 'One item returned' }, headers: as() });
    expect(reversed.status).toBe(201);
    const escrow = (await call(api!.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: as() })).body.data;
    expect(escrow.allocations.find((a: { merchantId: string }) => a.merchantId === merchant.merchantId)).toMatchObject({ released: 600.5, reversed: 100 });
  });
});
