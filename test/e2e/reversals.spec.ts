import { verifyCallback } from '@app/callback-receiver';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { createAccount, escrowRequest, registerMarketplace, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { CallbackReceiver } from '../support/callback-receiver';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * A return after release (issue 31, item 1), over HTTP on PostgreSQL: money already released to a
 * seller goes back to the customer through the provider and is taken from the seller's payable (and
 * from the marketplace's fees when it gives its fee back), with the ledger, the escrow's view, the
 * signed REFUNDED callback, and the refusals that write nothing.
 */
describe('reversals: money taken back after its release', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  let other: TestMarketplace;
  let receiver: CallbackReceiver;
  let auditorKey: string;

  const as = (m: TestMerchant = merchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (path: string, body: unknown, m: TestMerchant = merchant) => call(running.baseUrl, 'POST', path, { body, headers: as(m) });
  const get = (path: string) => call(running.baseUrl, 'GET', path, { headers: as() });
  /** An account's balance in the ledger, in santim (0 before its first posting). */
  const balance = async (account: string) => {
    const res = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`, { headers: { 'x-auditor-key': auditorKey } });
    expect(res.status).toBe(200);
    return res.body.data.accounts.length ? Math.round(res.body.data.accounts[0].balance * 100) : 0;
  };
  const refundRequests = async (escrowId: string) =>
    (await running.schema!.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND event_type = 'EscrowRefundRequested'`, [`escrow-${escrowId}`]))[0].n;
  const allocation = (res: { body: any }, merchantId: string) => res.body.data.allocations.find((a: { merchantId: string }) => a.merchantId === merchantId);

  /** A paid escrow: seller 600.50 ETB with a 60.05 ETB fee to the marketplace, courier 400 ETB; the seller's share released. */
  async function releasedToSeller(seller: string): Promise<string> {
    const allocations = [
      { merchantId: seller, amount: 600.5, fee: 60.05 },
      { merchantId: merchant.courier1, amount: 400 },
    ];
    const created = await post('/v1/trdp/escrow/order', escrowRequest({ allocations, callbackURL: receiver.url }));
    expect(created.status).toBe(201);
    const { escrowId } = created.body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: seller })).status).toBe(200);
    return escrowId;
  }

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    merchant = await registerMarketplace(running.baseUrl);
    other = await registerMarketplace(running.baseUrl);
    auditorKey = (await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.auditorKey;
  });
  afterAll(async () => {
    await running?.close();
    await receiver?.close();
  });

  it("takes part back with the fee's share given back, then the rest from the seller alone: the ledger, the view and the signed REFUNDED callback", async () => {
    const seller = await createAccount(running.baseUrl, merchant, `seller-rev-${Date.now()}`);
    const escrowId = await releasedToSeller(seller);
    const payable = `merchant:${seller}:payable`;
    const fees = `merchant:${merchant.merchantId}:fees`;
    await waitFor(async () => (await balance(payable)) === 54_045, "the seller's net to reach its payable");
    const feesBefore = await balance(fees);

    const part = await post(`/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: seller, amount: 100, reason: 'The customer returned one item', refundFee: true });
    expect(part.status).toBe(201);
    expect(part.body.data).toEqual({
      refundId: expect.any(String),
      escrowId,
      orderId: expect.any(String),
      merchantId: seller,
      amount: 100,
      feeReturned: 10,
      merchantDebited: 90,
      reason: 'The customer returned one item',
      status: 'PENDING',
      requestedAt: expect.any(String),
      livemode: false,
    });
    await waitFor(async () => (await balance(payable)) === 54_045 - 9_000, 'the seller to be debited its net share');
    expect(await balance(fees)).toBe(feesBefore - 1_000);

    const callback = () => receiver.received.map((c) => ({ ...c, payload: JSON.parse(c.body) })).find((c) => c.payload.escrowId === escrowId && c.payload.status === 'REFUNDED');
    await waitFor(async () => callback() !== undefined, 'the REFUNDED callback once the provider confirms');
    expect(verifyCallback(merchant.webhookSecret, callback()!.headers, callback()!.body)).toMatchObject({
      status: 'REFUNDED',
      amount: 100,
      refundId: part.body.data.refundId,
      message: `100 ETB of ${seller} taken back after its release and refunded to the customer: The customer returned one item`,
      allocations: [{ merchantId: seller, amount: 100 }],
    });

    // Without an amount: all that is left of what was released, borne by the seller alone; the payable goes below zero.
    const rest = await post(`/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: seller, reason: 'The customer returned the rest' });
    expect(rest.status).toBe(201);
    expect(rest.body.data).toMatchObject({ amount: 500.5, feeReturned: 0, merchantDebited: 500.5 });
    await waitFor(async () => (await balance(payable)) === 54_045 - 9_000 - 50_050, 'the seller to bear the rest');
    expect(await balance(payable)).toBe(-5_005);
    const view = allocation(await get(`/v1/trdp/escrow/${escrowId}`), seller);
    expect(view).toMatchObject({ status: 'RELEASED', released: 600.5, reversed: 600.5, feeReturned: 10, held: 0 });
  });

  it('refuses what cannot be reversed with 409 and a code of its own, another merchant\'s escrow with 404, a malformed body with 400: nothing written', async () => {
    const seller = await createAccount(running.baseUrl, merchant, `seller-ref-${Date.now()}`);
    const escrowId = await releasedToSeller(seller);
    const before = await refundRequests(escrowId);
    const refused = [
      [await post(`/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: merchant.courier1, reason: 'r' }), 409, 'NOTHING_TO_REVERSE'],
      [await post(`/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: seller, amount: 600.51, reason: 'r' }), 409, 'AMOUNT_EXCEEDS_REVERSIBLE'],
      [await post(`/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: 'nobody', reason: 'r' }), 409, 'ALLOCATION_NOT_FOUND'],
      [await post(`/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: seller, reason: 'r' }, other), 404, 'ABC_001'],
      [await post(`/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: seller, reason: 'r', refundFee: 'yes' }), 400, undefined],
      [await post(`/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: seller }), 400, undefined],
    ] as const;
    for (const [res, status, code] of refused) {
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toContain('application/json');
      if (code) expect(res.body.error.code).toBe(code);
    }
    expect(await refundRequests(escrowId)).toBe(before);
  });

  it('two reversals of one allocation at once have one outcome: never more than was released', async () => {
    const seller = await createAccount(running.baseUrl, merchant, `seller-race-${Date.now()}`);
    const escrowId = await releasedToSeller(seller);
    const both = await Promise.all([1, 2].map(() => post(`/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: seller, amount: 400, reason: 'returned' })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(both.find((r) => r.status === 409)!.body.error.code).toBe('AMOUNT_EXCEEDS_REVERSIBLE');
    expect(allocation(await get(`/v1/trdp/escrow/${escrowId}`), seller)).toMatchObject({ reversed: 400 });
    expect(await refundRequests(escrowId)).toBe(1);
  });
});
