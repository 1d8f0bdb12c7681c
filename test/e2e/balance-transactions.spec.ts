import { type RunningApp, startApp } from '../support/app';
import { escrowRequest, linkToPlatform, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

type Line = { eventId: string; type: string; gross: number; fee: number; net: number; recovered: number; availableOn: string | null; source: { type: string; id: string }; counterparty: string | null; sourceDescription: string | null };

/** Today in Addis Ababa (UTC+3): the day a credit with no holding period becomes available. */
const addisToday = () => new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString().slice(0, 10);

/**
 * A marketplace's money line by line (docs/guides/balances.md, "Balance transactions"): a split
 * checkout with a 10% commission, a release, the seller paid out, a return after the payout, a bonus
 * that recovers part of what the seller then owes; each party's balance transactions say what happened,
 * in names, and add up to its balance.
 */
describe('balance transactions, walked through by a marketplace', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  let courier: TestMerchant;
  const headers = (accountId?: string) => ({ 'x-api-secret': platform.apiSecret, ...(accountId ? { 'x-account-id': accountId } : {}) });
  const post = (path: string, body: unknown, accountId?: string) => call(running.baseUrl, 'POST', path, { body, headers: headers(accountId) });
  const get = (path: string, accountId?: string) => call(running.baseUrl, 'GET', path, { headers: headers(accountId) });
  const linesOf = async (query: string, accountId?: string): Promise<Line[]> => {
    const answer = await get(`/v1/trdp/balance-transactions${query}`, accountId);
    expect(answer.status).toBe(200);
    return answer.body.data.balanceTransactions;
  };
  const available = async (accountId?: string) => (await get('/v1/trdp/balance', accountId)).body.data.available as number;

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200' } });
    platform = await registerMerchant(running.baseUrl, 'Merkato Online');
    courier = await registerMerchant(running.baseUrl, 'Fast Courier');
    await linkToPlatform(running.baseUrl, courier, platform);
  });
  afterAll(async () => {
    await running?.close();
  });

  it('lists each release, fee, payout, reversal and transfer with gross, fee, net and names; the nets sum to the balance and a payout lists what it paid', async () => {
    const seller = (await post('/v1/trdp/accounts', { name: 'Abebe Coffee', type: 'individual', tin: '0000000001', reference: 'abebe' })).body.data.accountId as string;
    expect((await post('/v1/trdp/payout-destination', { kind: 'wallet', institution: '855', accountNumber: '0911000000', holderName: 'Abebe Coffee' }, seller)).status).toBe(200);

    // A split checkout: the seller's 1,200 with the marketplace's 120, the courier's 300 without a fee, the marketplace's own 100.
    const created = await post(
      '/v1/trdp/escrow/order',
      escrowRequest({
        amount: 1600,
        description: 'Coffee beans and delivery',
        items: [{ productId: 'cart', item_name: 'Cart', quantity: 1, unit_price: 1600 }],
        allocations: [
          { merchantId: seller, amount: 1200, fee: 120 },
          { merchantId: courier.merchantId, amount: 300 },
          { merchantId: platform.merchantId, amount: 100 },
        ],
      }),
    );
    expect(created.status).toBe(201);
    const { escrowId } = created.body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    for (const merchantId of [seller, courier.merchantId, platform.merchantId]) expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId })).status).toBe(200);
    await waitFor(async () => (await available(seller)) === 1080, 'the release in the seller’s balance');

    const [release] = await linesOf('', seller);
    expect(release).toMatchObject({
      type: 'release',
      gross: 1200,
      fee: 120,
      net: 1080,
      recovered: 0,
      availableOn: addisToday(),
      source: { type: 'escrow', id: escrowId },
      counterparty: 'Merkato Online',
      sourceDescription: 'Coffee beans and delivery',
    });
    // The marketplace's side: its own share, and its commission with the seller named.
    await waitFor(async () => (await available()) === 220, 'the commission and its own share in the platform’s balance');
    expect(await linesOf('')).toEqual([
      expect.objectContaining({ type: 'release', gross: 100, fee: 0, net: 100, counterparty: null, source: { type: 'escrow', id: escrowId } }),
      expect.objectContaining({ type: 'fee', gross: 120, fee: 0, net: 120, counterparty: 'Abebe Coffee', source: { type: 'escrow', id: escrowId } }),
    ]);
    // The courier, a merchant of its own, reads its own with its own key.
    const courierLines = await call(running.baseUrl, 'GET', '/v1/trdp/balance-transactions', { headers: { 'x-api-secret': courier.apiSecret } });
    expect(courierLines.body.data.balanceTransactions).toEqual([expect.objectContaining({ type: 'release', gross: 300, fee: 0, net: 300, counterparty: 'Merkato Online' })]);

    // The seller is paid out; the payout's lines are the release it paid.
    const payout = await post('/v1/trdp/payouts', {}, seller);
    expect(payout.body.data.amount).toBe(1080);
    const { payoutId } = payout.body.data;
    await waitFor(async () => (await get(`/v1/trdp/payouts/${payoutId}`, seller)).body.data.status === 'PAID', 'the payout');
    expect((await linesOf(`?payout=${payoutId}`, seller)).map((l) => [l.type, l.net])).toEqual([['release', 1080]]);

    // A return after the payout: the seller gives back its net, the marketplace its fee; the seller owes 1,080.
    const reversal = await post(`/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: seller, reason: 'Returned', refundFee: true });
    expect(reversal.status).toBe(201);
    await waitFor(async () => (await available(seller)) === -1080, 'the seller below zero');
    // A bonus from the marketplace covers part of it: a recovery.
    const bonus = await post('/v1/trdp/transfers', { to: seller, amount: 50, description: 'Goodwill bonus' });
    expect(bonus.status).toBe(201);
    await waitFor(async () => (await available(seller)) === -1030, 'the bonus in the seller’s balance');

    const lines = await linesOf('?limit=100', seller);
    expect(lines.map((l) => [l.type, l.gross, l.fee, l.net, l.recovered])).toEqual([
      ['transfer', 50, 0, 50, 50],
      ['reversal', -1200, -120, -1080, 0],
      ['payout', -1080, 0, -1080, 0],
      ['release', 1200, 120, 1080, 0],
    ]);
    expect(lines[0]).toMatchObject({ source: { type: 'transfer', id: bonus.body.data.transferId }, counterparty: 'Merkato Online', sourceDescription: 'Goodwill bonus', availableOn: addisToday() });
    expect(lines[1]).toMatchObject({ availableOn: null, source: { type: 'escrow', id: escrowId } });
    expect(lines[2]).toMatchObject({ source: { type: 'payout', id: payoutId }, counterparty: null, sourceDescription: null });
    expect(lines.reduce((sum, l) => sum + Math.round(l.net * 100), 0)).toBe(-103_000);
    // The marketplace's: the bonus out, its fee back, its own share, its fee in.
    expect((await linesOf('')).map((l) => [l.type, l.net, l.counterparty])).toEqual([
      ['transfer', -50, 'Abebe Coffee'],
      ['fee_reversal', -120, 'Abebe Coffee'],
      ['release', 100, null],
      ['fee', 120, 'Abebe Coffee'],
    ]);

    // A page at a time, by type, by time.
    const pages: string[] = [];
    let startingAfter = '';
    for (;;) {
      const page = (await get(`/v1/trdp/balance-transactions?limit=1${startingAfter ? `&startingAfter=${startingAfter}` : ''}`, seller)).body.data;
      pages.push(...page.balanceTransactions.map((l: Line) => l.eventId));
      if (!page.hasMore) break;
      startingAfter = pages[pages.length - 1];
    }
    expect(pages).toEqual(lines.map((l) => l.eventId));
    expect((await linesOf('?type=reversal', seller)).map((l) => l.eventId)).toEqual([lines[1].eventId]);
    expect(await linesOf(`?createdBefore=${encodeURIComponent(new Date(Date.now() - 60 * 60 * 1000).toISOString())}`, seller)).toEqual([]);

    // The accounts list carries each seller's balance, in the same page.
    const listed = (await get('/v1/trdp/accounts')).body.data.accounts.find((a: { accountId: string }) => a.accountId === seller);
    expect(listed.balance).toEqual({ available: -1030, onHold: 0, reserve: 0, pending: 0, negative: true });
    expect((await get(`/v1/trdp/accounts/${seller}`)).body.data.balance).toEqual({ available: -1030, onHold: 0, reserve: 0, pending: 0, negative: true });

    // The statement CSV keeps its first eight columns and adds recovered, gross, fee, the names, the mode and what each line belongs to after them.
    const from = encodeURIComponent(new Date(Date.now() - 60 * 60 * 1000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    const csv = (await get(`/v1/trdp/statement.csv?from=${from}&to=${to}`, seller)).text.trim().split('\r\n');
    expect(csv[0]).toBe('recorded_at,event_id,type,source,description,available_on,amount,balance,recovered,gross,fee,counterparty,source_description,livemode,escrow_id,order_id,reserve,reserve_available_on');
    const releaseRow = csv.find((row) => row.includes(release.eventId))!.split(',');
    // The description before them may hold a comma (quoted): the added columns are read from the end.
    expect(releaseRow.slice(-12)).toEqual(['1080', '1080', '0', '1200', '120', 'Merkato Online', 'Coffee beans and delivery', 'false', release.source.id, '', '0', '']);
    const bonusRow = csv.find((row) => row.includes(lines[0].eventId))!.split(',');
    expect(bonusRow.slice(-12)).toEqual(['50', '-1030', '50', '50', '0', 'Merkato Online', 'Goodwill bonus', 'false', '', '', '0', '']);
  });

  it('refuses a type, a cursor or a range it does not know, and another merchant’s payout, writing nothing', async () => {
    const refusal = async (query: string) => {
      const answer = await get(`/v1/trdp/balance-transactions${query}`);
      return [answer.status, answer.body.error?.code];
    };
    expect(await refusal('?type=charge')).toEqual([400, 'UNKNOWN_BALANCE_TRANSACTION_TYPE']);
    expect(await refusal('?startingAfter=evt_unknown')).toEqual([400, 'UNKNOWN_CURSOR']);
    expect(await refusal('?createdAfter=2026-12-01T00:00:00Z&createdBefore=2026-11-01T00:00:00Z')).toEqual([400, 'INVALID_DATE_RANGE']);
    expect(await refusal('?createdAfter=yesterday')).toEqual([400, 'INVALID_DATE_TIME']);
    expect(await refusal('?limit=0')).toEqual([400, 'BadRequestException']);
    expect(await refusal('?payout=po_unknown')).toEqual([404, 'ABC_001']);
  });
});
