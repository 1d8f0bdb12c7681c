import { verifyCallback } from '@app/callback-receiver';
import { type RunningApp, startApp } from '../support/app';
import { linkToPlatform, orderRequest, registerMarketplace, registerMerchant, type TestMerchant } from '../support/fixtures';
import { CallbackReceiver } from '../support/callback-receiver';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * Transfers between a platform and another party (issue 31, item 3), over HTTP on PostgreSQL: both ways,
 * the balance each side sees, the refusals that write nothing, a penalty below zero, reversals in part and
 * in full, two at once, the list's pages, both statements, and the signed callbacks. The other party is a
 * merchant linked to the platform, or one of its accounts; any other is not found (issue 37).
 */
describe('transfers: available money between a platform and another party', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  let seller: TestMerchant;
  let receiver: CallbackReceiver;

  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (path: string, body: unknown, m: TestMerchant = platform, headers: Record<string, string> = {}) =>
    call(running.baseUrl, 'POST', path, { body, headers: { ...as(m), ...headers } });
  const get = (path: string, m: TestMerchant = platform) => call(running.baseUrl, 'GET', path, { headers: as(m) });
  /** The balance API's available figure, in santim. */
  const available = async (m: TestMerchant) => {
    const res = await get('/v1/trdp/balance', m);
    expect(res.status).toBe(200);
    return Math.round(res.body.data.available * 100);
  };
  const transferEvents = async () => (await running.schema!.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE stream_id LIKE 'transfer-%'`))[0].n;
  const transfer = (body: Record<string, unknown>, m: TestMerchant = platform) => post('/v1/trdp/transfers', { description: 'Goodwill bonus', ...body }, m);

  /** A paid plain order of `amount` ETB: its money reaches the merchant's payable. */
  async function earn(m: TestMerchant, amount: number): Promise<void> {
    const before = await available(m);
    const created = await post('/v1/trdp/order', orderRequest({ amount, items: [{ productId: 'sku-1', item_name: 'Basket', quantity: 1, unit_price: amount }] }), m);
    expect(created.status).toBe(201);
    expect((await post(`/v1/sandbox/orders/${created.body.data.order_id}/complete`, { outcome: 'PAID' }, m)).status).toBe(200);
    await waitFor(async () => (await available(m)) === before + Math.round(amount * 100), 'the order money to reach the payable');
  }

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    platform = await registerMerchant(running.baseUrl, 'Marketplace');
    seller = await registerMerchant(running.baseUrl, 'Seller A');
    await linkToPlatform(running.baseUrl, seller, platform);
    expect((await post('/v1/trdp/payout-settings', { schedule: 'manual', callbackURL: receiver.url })).status).toBe(200);
    await earn(platform, 300);
  });
  afterAll(async () => {
    await running?.close();
    await receiver?.close();
  });

  it('moves available money both ways: the answer, both balances, both statements, the signed callback, and both events APIs', async () => {
    const platformBefore = await available(platform);
    const sellerBefore = await available(seller);
    const to = await transfer({ to: seller.merchantId, amount: 50, metadata: { ticket: 'T-1' } });
    expect(to.status).toBe(201);
    expect(to.body.data).toEqual({
      transferId: expect.stringMatching(/^tr_[0-9a-f]{32}$/),
      direction: 'to',
      counterparty: seller.merchantId,
      source: platform.merchantId,
      destination: seller.merchantId,
      amount: 50,
      reversed: 0,
      reversible: 50,
      currency: 'ETB',
      description: 'Goodwill bonus',
      metadata: { ticket: 'T-1' },
      escrowId: null,
      orderId: null,
      allowNegative: false,
      reversals: [],
      createdAt: expect.any(String),
      livemode: false,
    });
    const penalty = await transfer({ from: seller.merchantId, amount: 20, description: 'Late delivery penalty' });
    expect(penalty.status).toBe(201);
    expect(penalty.body.data).toMatchObject({ direction: 'from', source: seller.merchantId, destination: platform.merchantId, amount: 20 });

    expect(await available(platform)).toBe(platformBefore - 5_000 + 2_000);
    expect(await available(seller)).toBe(sellerBefore + 5_000 - 2_000);
    expect((await get(`/v1/trdp/transfers/${to.body.data.transferId}`)).body.data).toEqual(to.body.data);
    expect((await get(`/v1/trdp/transfers/${to.body.data.transferId}`, seller)).status).toBe(404);

    const period = `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;
    const lines = async (m: TestMerchant) => (await get(`/v1/trdp/statement?${period}`, m)).body.data.movements as { type: string; description: string; amount: number }[];
    expect((await lines(platform)).filter((l) => l.type === 'TransferCreated')).toEqual([
      expect.objectContaining({ description: `Transfer to ${seller.merchantId}: Goodwill bonus`, amount: -50 }),
      expect.objectContaining({ description: `Transfer from ${seller.merchantId}: Late delivery penalty`, amount: 20 }),
    ]);
    expect((await lines(seller)).filter((l) => l.type === 'TransferCreated')).toEqual([
      expect.objectContaining({ description: `Transfer from ${platform.merchantId}: Goodwill bonus`, amount: 50 }),
      expect.objectContaining({ description: `Transfer to ${platform.merchantId}: Late delivery penalty`, amount: -20 }),
    ]);

    const callback = () => receiver.received.find((c) => JSON.parse(c.body).transferId === to.body.data.transferId);
    await waitFor(async () => callback() !== undefined, 'the TRANSFER_CREATED callback');
    expect(verifyCallback(platform.webhookSecret, callback()!.headers, callback()!.body)).toMatchObject({
      status: 'TRANSFER_CREATED',
      merchantId: platform.merchantId,
      direction: 'to',
      destination: seller.merchantId,
      amount: 50,
      message: `50 ETB transferred to ${seller.merchantId}: Goodwill bonus`,
    });
    for (const m of [platform, seller]) {
      const events = await get('/v1/trdp/events?type=TRANSFER_CREATED', m);
      expect(events.status).toBe(200);
      expect(events.body.data.events.map((e: { payload: { transferId: string } }) => e.payload.transferId)).toContain(to.body.data.transferId);
    }
  });

  it('refuses what would take the source below zero with 409, a party the platform may not touch with 404, and bad fields with 400: nothing written', async () => {
    const before = await transferEvents();
    const balance = await available(platform);
    const refused = [
      [await transfer({ to: seller.merchantId, amount: balance / 100 + 0.01 }), 409, 'INSUFFICIENT_AVAILABLE_BALANCE'],
      [await transfer({ from: seller.merchantId, amount: (await available(seller)) / 100 + 0.01 }), 409, 'INSUFFICIENT_AVAILABLE_BALANCE'],
      [await transfer({ to: seller.merchantId, from: seller.merchantId, amount: 1 }), 400, 'TRANSFER_PARTY_REQUIRED'],
      [await transfer({ amount: 1 }), 400, 'TRANSFER_PARTY_REQUIRED'],
      [await transfer({ to: platform.merchantId, amount: 1 }), 404, 'UNKNOWN_TRANSFER_PARTY'],
      [await transfer({ to: 'nobody-at-all', amount: 1 }), 404, 'UNKNOWN_TRANSFER_PARTY'],
      [await transfer({ to: seller.merchantId, amount: 1, allowNegative: true }), 400, 'ALLOW_NEGATIVE_ONLY_FROM'],
      [await transfer({ to: seller.merchantId, amount: 1.001 }), 400, undefined],
      [await transfer({ to: seller.merchantId, amount: 1, currency: 'USD' }), 400, undefined],
    ] as const;
    for (const [res, status, code] of refused) {
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toContain('application/json');
      if (code) expect(res.body.error.code).toBe(code);
    }
    expect(await transferEvents()).toBe(before);
    expect(await available(platform)).toBe(balance);
  });

  it("moves money to one of the platform's own accounts, and refuses another platform's account: nothing written", async () => {
    const ownAccount = (await post('/v1/trdp/accounts', { name: 'Own Seller', type: 'individual' })).body.data.accountId;
    const theirAccount = (await post('/v1/trdp/accounts', { name: 'Their Seller', type: 'individual' }, seller)).body.data.accountId;
    await earn(platform, 30);
    const before = await transferEvents();
    const refused = await transfer({ to: theirAccount, amount: 1 });
    expect([refused.status, refused.body.error.code]).toEqual([404, 'UNKNOWN_TRANSFER_PARTY']);
    expect(await transferEvents()).toBe(before);
    const moved = await transfer({ to: ownAccount, amount: 10 });
    expect(moved.status).toBe(201);
    await waitFor(async () => (await call(running.baseUrl, 'GET', '/v1/trdp/balance', { headers: { ...as(platform), 'x-account-id': ownAccount } })).body.data.available === 10, "the account's balance to show the transfer");
  });

  it("never takes another merchant's money without its link (issue 37): 404 as an unknown party, with or without allowNegative, both balances unchanged", async () => {
    const victim = await registerMerchant(running.baseUrl, 'Plain Shop');
    const otherPlatform = await registerMarketplace(running.baseUrl, 'Other Platform');
    await earn(victim, 5);
    await earn(otherPlatform, 5);
    const before = await transferEvents();
    const balances = async () => [await available(victim), await available(otherPlatform), await available(platform)];
    const was = await balances();
    for (const target of [victim, otherPlatform]) {
      for (const body of [{ from: target.merchantId, amount: 5 }, { from: target.merchantId, amount: 1000, description: 'penalty', allowNegative: true }, { to: target.merchantId, amount: 1 }]) {
        const refused = await transfer(body);
        expect([refused.status, refused.body.error.code]).toEqual([404, 'UNKNOWN_TRANSFER_PARTY']);
      }
    }
    // A merchant linked to one platform is not thereby linked to another.
    const refused = await transfer({ from: seller.merchantId, amount: 1 }, otherPlatform);
    expect([refused.status, refused.body.error.code]).toEqual([404, 'UNKNOWN_TRANSFER_PARTY']);
    expect(await transferEvents()).toBe(before);
    expect(await balances()).toEqual(was);
  });

  it('stops at a revoked link: neither a new transfer nor the reversal of an earlier one debits the merchant', async () => {
    const partner = await registerMerchant(running.baseUrl, 'Partner');
    await linkToPlatform(running.baseUrl, partner, platform);
    const made = await transfer({ to: partner.merchantId, amount: 2 });
    expect(made.status).toBe(201);
    const revoked = await call(running.baseUrl, 'DELETE', `/v1/trdp/platform-links/${platform.merchantId}`, { headers: as(partner) });
    expect([revoked.status, revoked.body.data]).toEqual([200, expect.objectContaining({ merchantId: partner.merchantId, platformId: platform.merchantId, linked: false, decidedBy: 'merchant' })]);
    const before = await transferEvents();
    const was = await available(partner);
    for (const res of [await transfer({ from: partner.merchantId, amount: 1 }), await post(`/v1/trdp/transfers/${made.body.data.transferId}/reversals`, {})]) {
      expect([res.status, res.body.error.code]).toEqual([404, 'UNKNOWN_TRANSFER_PARTY']);
    }
    expect(await transferEvents()).toBe(before);
    expect(await available(partner)).toBe(was);
  });

  it('takes a penalty from the other party below zero when the platform allows it', async () => {
    const sellerBalance = await available(seller);
    const penalty = await transfer({ from: seller.merchantId, amount: sellerBalance / 100 + 70, description: 'Chargeback fee', allowNegative: true });
    expect(penalty.status).toBe(201);
    expect(penalty.body.data).toMatchObject({ allowNegative: true, direction: 'from' });
    expect(await available(seller)).toBe(-7_000);
    // Below zero, nothing more may leave it without the platform's say.
    expect((await transfer({ from: seller.merchantId, amount: 1 })).body.error.code).toBe('INSUFFICIENT_AVAILABLE_BALANCE');
    // Back to zero for the tests after this one.
    expect((await transfer({ to: seller.merchantId, amount: 70 })).status).toBe(201);
    expect(await available(seller)).toBe(0);
  });

  it('reverses part, then the rest, never more; the destination may go below zero; another merchant finds nothing', async () => {
    const made = await transfer({ to: seller.merchantId, amount: 40 });
    const { transferId } = made.body.data;
    const platformBefore = await available(platform);
    const part = await post(`/v1/trdp/transfers/${transferId}/reversals`, { amount: 15 });
    expect(part.status).toBe(201);
    expect(part.body.data).toEqual({ reversalId: `${transferId}-reversal-1`, amount: 15, reversedAt: expect.any(String), transferId, reversed: 15, reversible: 25, livemode: false });
    expect((await post(`/v1/trdp/transfers/${transferId}/reversals`, { amount: 25.01 })).body.error.code).toBe('TRANSFER_AMOUNT_EXCEEDS_REVERSIBLE');
    expect((await post(`/v1/trdp/transfers/${transferId}/reversals`, {}, seller)).status).toBe(404);
    expect((await post('/v1/trdp/transfers/tr_unknown/reversals', {})).status).toBe(404);

    // The seller spends what it got (a penalty), so the reversal of the rest takes it below zero.
    expect((await transfer({ from: seller.merchantId, amount: 25 })).status).toBe(201);
    const rest = await post(`/v1/trdp/transfers/${transferId}/reversals`, {});
    expect(rest.status).toBe(201);
    expect(rest.body.data).toMatchObject({ amount: 25, reversed: 40, reversible: 0 });
    expect(await available(seller)).toBe(-2_500);
    expect(await available(platform)).toBe(platformBefore + 1_500 + 2_500 + 2_500);
    expect((await post(`/v1/trdp/transfers/${transferId}/reversals`, {})).body.error.code).toBe('TRANSFER_FULLY_REVERSED');

    const view = (await get(`/v1/trdp/transfers/${transferId}`)).body.data;
    expect(view).toMatchObject({ amount: 40, reversed: 40, reversible: 0, reversals: [{ amount: 15 }, { amount: 25 }] });
    const callback = () => receiver.received.map((c) => JSON.parse(c.body)).find((p) => p.transferId === transferId && p.status === 'TRANSFER_REVERSED' && p.reversed === 40);
    await waitFor(async () => callback() !== undefined, 'the TRANSFER_REVERSED callback');
    expect(callback()).toMatchObject({ amount: 25, reversalId: `${transferId}-reversal-2` });
    expect((await transfer({ to: seller.merchantId, amount: 25 })).status).toBe(201);
  });

  it('two at once have one outcome: two reversals never take back more than was moved, two transfers never spend the same money', async () => {
    const { transferId } = (await transfer({ to: seller.merchantId, amount: 30 })).body.data;
    const reversals = await Promise.all([1, 2].map(() => post(`/v1/trdp/transfers/${transferId}/reversals`, { amount: 20 })));
    expect(reversals.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await get(`/v1/trdp/transfers/${transferId}`)).body.data).toMatchObject({ reversed: 20 });

    const balance = await available(platform);
    const half = Math.floor(balance / 2) + 1;
    const transfers = await Promise.all([1, 2].map(() => transfer({ to: seller.merchantId, amount: half / 100 })));
    expect(transfers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await available(platform)).toBe(balance - half);
    expect((await transfer({ from: seller.merchantId, amount: half / 100 })).status).toBe(201);
  });

  it('answers a retried request under its Idempotency-Key with the same transfer, made once', async () => {
    const before = await transferEvents();
    const body = { to: seller.merchantId, amount: 1, description: 'Keyed' };
    const key = { 'idempotency-key': `tr-key-${Date.now()}` };
    const first = await post('/v1/trdp/transfers', body, platform, key);
    const again = await post('/v1/trdp/transfers', body, platform, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.transferId).toBe(first.body.data.transferId);
    expect(await transferEvents()).toBe(before + 1);
    expect((await post('/v1/trdp/transfers', { ...body, amount: 2 }, platform, key)).body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it("is paid out on both sides, each payout's report with its own side's line, whichever side is paid out first", async () => {
    const shop = await registerMerchant(running.baseUrl, 'Second Marketplace');
    const vendor = await registerMerchant(running.baseUrl, 'Vendor');
    await linkToPlatform(running.baseUrl, vendor, shop);
    await earn(shop, 100);
    const made = await transfer({ to: vendor.merchantId, amount: 30, description: 'Bonus' }, shop);
    expect(made.status).toBe(201);
    const report = async (m: TestMerchant, amount: number) => {
      expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Paid Merchant' }, m)).status).toBe(200);
      const payout = await post('/v1/trdp/payouts', {}, m);
      expect(payout.status).toBe(201);
      expect(payout.body.data.amount).toBe(amount);
      return (await get(`/v1/trdp/payouts/${payout.body.data.payoutId}/report`, m)).body.data.lines as { type: string; source: string; description: string; net: number }[];
    };
    const shopLines = await report(shop, 70);
    expect(shopLines.find((l) => l.type === 'TransferCreated')).toMatchObject({ source: made.body.data.transferId, description: `Transfer to ${vendor.merchantId}: Bonus`, net: -30 });
    expect(await report(vendor, 30)).toEqual([expect.objectContaining({ type: 'TransferCreated', description: `Transfer from ${shop.merchantId}: Bonus`, net: 30 })]);
  });

  it('lists the platform’s transfers newest first, a page at a time; an unknown cursor is a 400', async () => {
    const all: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await get(`/v1/trdp/transfers?limit=2${after ? `&startingAfter=${after}` : ''}`);
      expect(page.status).toBe(200);
      all.push(...page.body.data.transfers.map((t: { transferId: string }) => t.transferId));
      if (!page.body.data.hasMore) break;
      after = all[all.length - 1];
    }
    const everything = (await get('/v1/trdp/transfers?limit=100')).body.data.transfers as { transferId: string; createdAt: string }[];
    expect(all).toEqual(everything.map((t) => t.transferId));
    expect(everything.map((t) => t.createdAt)).toEqual([...everything.map((t) => t.createdAt)].sort().reverse());
    expect(new Set(all).size).toBe(all.length);
    expect((await get('/v1/trdp/transfers', seller)).body.data.transfers).toEqual([]);
    expect((await get('/v1/trdp/transfers?startingAfter=tr_nothing')).body.error.code).toBe('UNKNOWN_CURSOR');
  });
});
