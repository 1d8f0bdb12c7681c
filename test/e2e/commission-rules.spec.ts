import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { createAccount, escrowRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

type Allocation = { merchantId: string; accountId: string; amount: number; fee: number; commission: Record<string, unknown> | null };

/**
 * Commission rules (issue 42, item 3; docs/guides/marketplaces.md#commission-rules): a platform takes
 * 10 % with a 5 ETB minimum, 7 % of one seller; an allocation without a fee pays the rule in force at
 * the escrow's creation, to the santim, and keeps it when the rule changes later; a fee the request
 * names wins; another platform cannot touch this platform's sellers' rules.
 */
describe('commission rules', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (m: TestMerchant, path: string, body?: unknown) => call(running.baseUrl, 'POST', path, { body: body ?? {}, headers: as(m) });
  const get = (m: TestMerchant, path: string) => call(running.baseUrl, 'GET', path, { headers: as(m) });
  const del = (m: TestMerchant, path: string) => call(running.baseUrl, 'DELETE', path, { headers: as(m) });
  /** In santim, from the audit API. */
  const ledger = async (account: string) => {
    const res = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    return res.body.data.accounts.length ? Math.round(res.body.data.accounts[0].balance * 100) : 0;
  };
  const history = async (escrowId: string) =>
    (await call(running.baseUrl, 'GET', `/v1/audit/streams/escrow-${escrowId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.events as { type: string; data: any }[];
  const fees = (allocations: Allocation[]) => allocations.map((a) => [a.merchantId, a.fee, a.commission && { source: a.commission.source, version: a.commission.version }]);

  /** An escrow of these allocations, paid and (with `release`) released whole; its create answer. */
  async function escrow(allocations: { merchantId: string; amount: number; fee?: number }[], release = false) {
    const amount = allocations.reduce((sum, a) => sum + Math.round(a.amount * 100), 0) / 100;
    const items = [{ productId: 'sku-1', item_name: 'Goods', quantity: 1, unit_price: amount }];
    const created = await post(platform, '/v1/trdp/escrow/order', escrowRequest({ amount, items, allocations, callbackURL: undefined }));
    expect(created.status).toBe(201);
    if (release) {
      const { escrowId } = created.body.data;
      expect((await post(platform, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
      await waitFor(async () => (await get(platform, `/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
      for (const { accountId } of created.body.data.allocations as Allocation[]) expect((await post(platform, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: accountId })).status).toBe(200);
    }
    return created.body.data as { escrowId: string; allocations: Allocation[] };
  }

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    platform = await registerMerchant(running.baseUrl, 'Merkato Online');
  });
  afterAll(() => running?.close());

  it('applies 10 % with a 5 ETB minimum, 7 % to the seller with an override, a named fee as named; releases pay each to the santim; a later change leaves the escrow as created', async () => {
    const [shop, override, small, named] = await Promise.all(['shop-1', 'shop-2', 'shop-3', 'shop-4'].map((reference) => createAccount(running.baseUrl, platform, reference)));

    expect((await get(platform, '/v1/trdp/commission')).body.data).toEqual({ accountId: null, percentage: null, flat: null, minimum: null, maximum: null, version: 0, updatedAt: null, livemode: false });
    const set = await post(platform, '/v1/trdp/commission', { percentage: 10, minimum: 5 });
    expect([set.status, set.body.data]).toEqual([
      200,
      { accountId: null, percentage: 10, flat: null, minimum: 5, maximum: null, version: 1, updatedAt: expect.any(String), previousAttributes: { percentage: null, minimum: null }, livemode: false },
    ]);
    const seven = await post(platform, `/v1/trdp/accounts/${override}/commission`, { percentage: 7 });
    expect(seven.body.data).toMatchObject({ accountId: override, percentage: 7, minimum: null, version: 1, previousAttributes: { percentage: null } });

    // 10 % of 600.50 is 60.05; 7 % of 400.25 is 28.0175, half up 28.02; 10 % of 30 is 3, raised to the 5 minimum; 15 as named; the platform's own share pays nothing.
    const first = await escrow(
      [
        { merchantId: shop, amount: 600.5 },
        { merchantId: override, amount: 400.25 },
        { merchantId: small, amount: 30 },
        { merchantId: named, amount: 200, fee: 15 },
        { merchantId: platform.merchantId, amount: 100 },
      ],
      true,
    );
    expect(fees(first.allocations)).toEqual([
      [shop, 60.05, { source: 'platform', version: 1 }],
      [override, 28.02, { source: 'account', version: 1 }],
      [small, 5, { source: 'platform', version: 1 }],
      [named, 15, null],
      [platform.merchantId, 0, null],
    ]);
    expect(first.allocations[0].commission).toEqual({ source: 'platform', version: 1, percentage: 10, flat: null, minimum: 5, maximum: null });

    // Each seller has the gross less its fee, the platform the fees and its own share, to the santim.
    const expected: [string, number][] = [
      [`merchant:${shop}:payable`, 54_045],
      [`merchant:${override}:payable`, 37_223],
      [`merchant:${small}:payable`, 2_500],
      [`merchant:${named}:payable`, 18_500],
      [`merchant:${platform.merchantId}:fees`, 10_807],
      [`merchant:${platform.merchantId}:payable`, 10_000],
    ];
    await waitFor(async () => {
      const actual = await Promise.all(expected.map(async ([account]) => [account, await ledger(account)]));
      return JSON.stringify(actual) === JSON.stringify(expected);
    }, 'the releases in the ledger');
    expect((await get(platform, '/v1/trdp/balance')).body.data).toMatchObject({ feesEarned: 108.07 });
    const sellerBalance = await call(running.baseUrl, 'GET', '/v1/trdp/balance', { headers: { ...as(platform), 'x-account-id': override } });
    expect(sellerBalance.body.data).toMatchObject({ available: 372.23 });

    // The rule changes: the escrow keeps its fees and says which rule made them; the next escrow pays the new one.
    const changed = await post(platform, '/v1/trdp/commission', { percentage: 12 });
    expect(changed.body.data).toMatchObject({ percentage: 12, minimum: null, version: 2, previousAttributes: { percentage: 10, minimum: 5 } });
    const read = await get(platform, `/v1/trdp/escrow/${first.escrowId}`);
    expect(fees(read.body.data.allocations)).toEqual(fees(first.allocations));
    expect(read.body.data.allocations.map((a: { feeEarned: number }) => a.feeEarned)).toEqual([60.05, 28.02, 5, 15, 0]);
    const [created] = await history(first.escrowId);
    expect(created.type).toBe('EscrowCreated');
    expect(created.data.allocations.slice(0, 2)).toEqual([
      { merchantId: shop, amount: 60_050, fee: 6_005, account: true, commission: { source: 'platform', version: 1, rule: { basisPoints: 1_000, minimum: 500 } } },
      { merchantId: override, amount: 40_025, fee: 2_802, account: true, commission: { source: 'account', version: 1, rule: { basisPoints: 700 } } },
    ]);
    const second = await escrow([
      { merchantId: shop, amount: 100 },
      { merchantId: override, amount: 100 },
    ]);
    expect(fees(second.allocations)).toEqual([
      [shop, 12, { source: 'platform', version: 2 }],
      [override, 7, { source: 'account', version: 1 }],
    ]);

    // Without its override the seller pays the default again; the removal is a version that says what it replaced.
    const removed = await del(platform, `/v1/trdp/accounts/${override}/commission`);
    expect([removed.status, removed.body.data]).toEqual([
      200,
      { accountId: override, percentage: null, flat: null, minimum: null, maximum: null, version: 2, updatedAt: expect.any(String), previousAttributes: { percentage: 7 }, livemode: false },
    ]);
    expect(fees((await escrow([{ merchantId: override, amount: 100 }])).allocations)).toEqual([[override, 12, { source: 'platform', version: 2 }]]);
    const overrideHistory = await call(running.baseUrl, 'GET', `/v1/audit/streams/commission-${override}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(overrideHistory.body.data.events.map((e: { type: string; data: { rule: unknown; previous: unknown } }) => [e.type, e.data.rule, e.data.previous])).toEqual([
      ['CommissionChanged', { basisPoints: 700 }, null],
      ['CommissionChanged', null, { basisPoints: 700 }],
    ]);
  });

  it("refuses a rule that computes nothing, bounds out of order, a percent that is no whole basis point, and another platform's seller (404), writing nothing", async () => {
    const seller = await createAccount(running.baseUrl, platform, 'refusals-1');
    const refusals: [unknown, string][] = [
      [{ minimum: 5 }, 'COMMISSION_RULE_EMPTY'],
      [{ percentage: 10, minimum: 10, maximum: 5 }, 'COMMISSION_BOUNDS_INVERTED'],
      [{ percentage: 10.001 }, 'COMMISSION_PERCENTAGE_INVALID'],
      [{ percentage: 100.5 }, 'COMMISSION_PERCENTAGE_INVALID'],
      [{ percentage: 10, splitType: 'percentage' }, 'UNKNOWN_FIELD'],
    ];
    for (const [body, code] of refusals) {
      const refused = await post(platform, `/v1/trdp/accounts/${seller}/commission`, body);
      expect([refused.status, refused.body.error.code]).toEqual([400, code]);
    }
    const other = await registerMerchant(running.baseUrl, 'Another Marketplace');
    for (const attempt of [post(other, `/v1/trdp/accounts/${seller}/commission`, { percentage: 1 }), get(other, `/v1/trdp/accounts/${seller}/commission`), del(other, `/v1/trdp/accounts/${seller}/commission`)]) {
      const refused = await attempt;
      expect([refused.status, refused.body.error.code]).toEqual([404, 'ABC_001']);
    }
    expect((await get(platform, `/v1/trdp/accounts/${seller}/commission`)).body.data).toMatchObject({ percentage: null, version: 0 });
    const none = await call(running.baseUrl, 'GET', `/v1/audit/streams/commission-${seller}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(none.body.data?.events ?? []).toEqual([]);
    // A fee the request names is still refused above its allocation.
    const tooMuch = await post(platform, '/v1/trdp/escrow/order', escrowRequest({ amount: 10, items: [{ productId: 'sku-1', item_name: 'Goods', quantity: 1, unit_price: 10 }], allocations: [{ merchantId: seller, amount: 10, fee: 10.01 }] }));
    expect([tooMuch.status, tooMuch.body.error.code]).toEqual([400, 'FEE_EXCEEDS_AMOUNT']);
  });
});
