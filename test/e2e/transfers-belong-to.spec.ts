import { type RunningApp, startApp } from '../support/app';
import { countWrites, createAccount, escrowRequest, orderRequest, registerMarketplace, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * Transfers that belong somewhere (issue 42): one names the escrow or payment order it belongs to, which
 * its answer shows and the list filters by, and a seller named by its reference as allocations name it;
 * a reference resolves among the caller's own accounts only, and every refusal writes nothing.
 */
describe('transfers tied to their escrow or order, and sellers named by reference', () => {
  let running: RunningApp;
  let platform: TestMarketplace;
  let other: TestMarketplace;

  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (path: string, body: unknown, m: TestMerchant = platform) => call(running.baseUrl, 'POST', path, { body, headers: as(m) });
  const get = (path: string, m: TestMerchant = platform, headers: Record<string, string> = {}) => call(running.baseUrl, 'GET', path, { headers: { ...as(m), ...headers } });
  /** The balance API's available figure, in santim. */
  const available = async (m: TestMerchant, headers: Record<string, string> = {}) => Math.round((await get('/v1/trdp/balance', m, headers)).body.data.available * 100);
  const transfer = (body: Record<string, unknown>, m: TestMerchant = platform) => post('/v1/trdp/transfers', { description: 'Late delivery penalty', ...body }, m);
  const writes = () => countWrites(running.schema!.client, { exceptCallbacks: true });

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    platform = await registerMarketplace(running.baseUrl, 'Merkato Online');
    other = await registerMarketplace(running.baseUrl, 'Other Market');
  });
  afterAll(() => running?.close());

  it('names the escrow a penalty belongs to and the seller by its reference; the list keeps the escrow’s transfers; the money moves to the santim', async () => {
    const escrow = (await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined }))).body.data;
    const order = (await post('/v1/trdp/order', orderRequest())).body.data;
    const seller = { 'x-account-id': platform.seller1 };
    const [platformBefore, sellerBefore] = [await available(platform), await available(platform, seller)];

    const penalty = await transfer({ from: 'seller-1', amount: 12.5, allowNegative: true, escrowId: escrow.escrowId });
    expect(penalty.status).toBe(201);
    expect(penalty.body.data).toMatchObject({ direction: 'from', source: platform.seller1, destination: platform.merchantId, amount: 12.5, escrowId: escrow.escrowId, orderId: null });
    const bonus = await transfer({ to: platform.courier1, amount: 2.25, orderId: order.order_id, description: 'Fast delivery bonus' }).then((r) => r.body.data);
    expect(bonus).toMatchObject({ direction: 'to', destination: platform.courier1, orderId: order.order_id, escrowId: null });
    const plain = (await transfer({ to: 'courier-1', amount: 1, description: 'Tip' })).body.data;
    expect(plain).toMatchObject({ destination: platform.courier1, escrowId: null, orderId: null });

    await waitFor(async () => (await available(platform, seller)) === sellerBefore - 1_250, 'the penalty to leave the seller');
    expect(await available(platform)).toBe(platformBefore + 1_250 - 225 - 100);

    const listed = async (query: string) => ((await get(`/v1/trdp/transfers${query}`)).body.data.transfers as { transferId: string }[]).map((t) => t.transferId);
    expect(await listed(`?escrowId=${escrow.escrowId}`)).toEqual([penalty.body.data.transferId]);
    expect(await listed(`?orderId=${order.order_id}`)).toEqual([bonus.transferId]);
    expect(await listed('')).toEqual([plain.transferId, bonus.transferId, penalty.body.data.transferId]);
    expect((await get(`/v1/trdp/transfers/${penalty.body.data.transferId}`)).body.data).toMatchObject({ escrowId: escrow.escrowId });
    // Another platform lists none of them by the escrow.
    expect(await (async () => ((await get(`/v1/trdp/transfers?escrowId=${escrow.escrowId}`, other)).body.data.transfers as unknown[]).length)()).toBe(0);

    // Both sides' statements, statement CSVs and balance transactions say which escrow or order each transfer was for.
    const period = `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;
    type Line = { source: string; amount: number; escrowId: string | null; orderId: string | null };
    const statementLine = async (transferId: string, headers: Record<string, string> = {}) =>
      ((await get(`/v1/trdp/statement?${period}`, platform, headers)).body.data.movements as Line[]).find((l) => l.source === transferId);
    const balanceLine = async (transferId: string, headers: Record<string, string> = {}) =>
      ((await get('/v1/trdp/balance-transactions?type=transfer&limit=100', platform, headers)).body.data.balanceTransactions as (Line & { source: { id: string } })[]).find((l) => l.source.id === transferId);
    const courier = { 'x-account-id': platform.courier1 };
    for (const [transferId, headers, amount, escrowId, orderId] of [
      [penalty.body.data.transferId, {}, 12.5, escrow.escrowId, null],
      [penalty.body.data.transferId, seller, -12.5, escrow.escrowId, null],
      [bonus.transferId, {}, -2.25, null, order.order_id],
      [bonus.transferId, courier, 2.25, null, order.order_id],
      [plain.transferId, courier, 1, null, null],
    ] as const) {
      expect(await statementLine(transferId, headers)).toMatchObject({ amount, escrowId, orderId });
      expect(await balanceLine(transferId, headers)).toMatchObject({ net: amount, escrowId, orderId });
    }
    const csv = (await call(running.baseUrl, 'GET', `/v1/trdp/statement.csv?${period}`, { headers: { ...as(platform), ...seller } })).text.trim().split('\r\n');
    expect(csv[0].split(',').slice(-5, -2)).toEqual(['livemode', 'escrow_id', 'order_id']);
    expect(csv.find((row) => row.includes(penalty.body.data.transferId))!.split(',').slice(-4, -2)).toEqual([escrow.escrowId, '']);
    // The TRANSFER_CREATED callback carries it, to the platform and to the seller (their events API's payloads).
    const told = async (m: TestMerchant, headers: Record<string, string>, transferId: string) =>
      ((await get('/v1/trdp/events?type=TRANSFER_CREATED', m, headers)).body.data.events as { payload: { transferId: string; belongsTo: unknown } }[]).find((e) => e.payload.transferId === transferId)?.payload;
    expect(await told(platform, {}, penalty.body.data.transferId)).toMatchObject({ belongsTo: { escrowId: escrow.escrowId, orderId: null }, orderId: penalty.body.data.transferId });
    expect(await told(platform, seller, penalty.body.data.transferId)).toMatchObject({ belongsTo: { escrowId: escrow.escrowId, orderId: null } });
    expect(await told(platform, courier, bonus.transferId)).toMatchObject({ belongsTo: { escrowId: null, orderId: order.order_id } });
  });

  it('refuses, writing nothing: a reference of another platform’s account, another’s escrow or order, both at once', async () => {
    await createAccount(running.baseUrl, other, 'only-theirs');
    const theirs = (await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined }), other)).body.data;
    const theirOrder = (await post('/v1/trdp/order', orderRequest(), other)).body.data;
    const mine = (await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined }))).body.data;
    const before = await writes();
    for (const [body, status, code] of [
      [{ to: 'only-theirs', amount: 1 }, 404, 'UNKNOWN_TRANSFER_PARTY'],
      [{ from: 'only-theirs', amount: 1, allowNegative: true }, 404, 'UNKNOWN_TRANSFER_PARTY'],
      [{ from: other.seller1, amount: 1, allowNegative: true }, 404, 'UNKNOWN_TRANSFER_PARTY'],
      [{ to: 'seller-1', amount: 1, escrowId: theirs.escrowId }, 404, 'UNKNOWN_TRANSFER_PAYABLE'],
      [{ to: 'seller-1', amount: 1, orderId: theirOrder.order_id }, 404, 'UNKNOWN_TRANSFER_PAYABLE'],
      [{ to: 'seller-1', amount: 1, escrowId: 'esc_none' }, 404, 'UNKNOWN_TRANSFER_PAYABLE'],
      [{ to: 'seller-1', amount: 1, escrowId: mine.escrowId, orderId: theirOrder.order_id }, 400, 'TRANSFER_BELONGS_TO_ONE'],
    ] as const) {
      const refused = await transfer(body);
      expect([body, refused.status, refused.body.error?.code]).toEqual([body, status, code]);
    }
    expect(await writes()).toEqual(before);
    // The other platform's own reference names its own account: its seller-1, not ours.
    const theirsByReference = await transfer({ from: 'seller-1', amount: 1, allowNegative: true }, other);
    expect(theirsByReference.body.data).toMatchObject({ source: other.seller1 });
  });
});
