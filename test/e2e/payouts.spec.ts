import { streams } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import { carryOverPayoutAccounts, SANDBOX_TRANSFER_ACCOUNTS } from '@app/payments';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, linkToPlatform, registerMarketplace, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * Released money leaves the ledger: an on-demand payout of what the merchant's payable holds, sent as
 * a transfer by the sandbox, paid or failed (and then back in the payable), never paying a movement twice.
 */
describe('payouts', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  let other: TestMarketplace;
  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (path: string, body?: unknown, m = merchant) => call(running.baseUrl, 'POST', path, { body: body ?? {}, headers: as(m) });
  const get = (path: string, m = merchant) => call(running.baseUrl, 'GET', path, { headers: as(m) });
  /** In santim, from the audit API. */
  const balance = async (account: string) => {
    const res = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    return res.body.data.accounts.length ? Math.round(res.body.data.accounts[0].balance * 100) : 0;
  };
  const destination = (accountNumber: string) => post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber, holderName: 'Paid Merchant' });
  const payoutIn = async (payoutId: string, status: string) =>
    waitFor(async () => {
      const res = await get(`/v1/trdp/payouts/${payoutId}`);
      return res.body.data?.status === status && res.body.data;
    }, `payout ${payoutId} to be ${status}`);

  /**
   * An escrow paid and the merchant's allocation (600.50 ETB) released to its payable: its own escrow, or,
   * with a `fee`, one `other` created as the platform that takes the fee.
   */
  async function releasedToMerchant(fee?: number, seller = merchant): Promise<void> {
    const creator = fee ? other : seller;
    const allocations = [{ merchantId: seller.merchantId, amount: 600.5, ...(fee ? { fee } : {}) }, { merchantId: creator.courier1, amount: 400 }];
    const created = await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }), creator);
    const { escrowId } = created.body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' }, creator)).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`, creator)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: seller.merchantId }, creator)).status).toBe(200);
  }

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' } });
    merchant = await registerMarketplace(running.baseUrl, 'Paid Merchant');
    other = await registerMarketplace(running.baseUrl, 'Other Merchant');
    // `other` credits `merchant` as the platform taking a fee (releasedToMerchant): it needs the merchant's link.
    await linkToPlatform(running.baseUrl, merchant, other);
  });
  afterAll(() => running?.close());

  it('pays out what was released, through payouts:in-transit, once; then there is nothing to pay out', async () => {
    await releasedToMerchant();
    const refused = await post('/v1/trdp/payouts');
    expect([refused.status, refused.body.error.code]).toEqual([409, 'PAYOUT_DESTINATION_MISSING']);
    await destination('1000123456789');
    const clearingBefore = await balance('test:provider:clearing');

    const requested = await post('/v1/trdp/payouts');
    expect(requested.status).toBe(201);
    expect(requested.body.data).toMatchObject({ status: 'REQUESTED', amount: 600.5, currency: 'ETB', trigger: 'on-demand', movements: null });
    const paid = await payoutIn(requested.body.data.payoutId, 'PAID');
    expect(paid).toMatchObject({ amount: 600.5, paidAt: expect.any(String), providerReference: expect.stringMatching(/^SBX-T-/) });
    await waitFor(async () => (await balance('test:payouts:in-transit')) === 0 && (await balance(`merchant:${merchant.merchantId}:payable`)) === 0, 'the payout to leave the books');
    expect(await balance('test:provider:clearing')).toBe(clearingBefore - 60_050);

    const again = await post('/v1/trdp/payouts');
    expect([again.status, again.body.error.code]).toEqual([409, 'NOTHING_TO_PAY_OUT']);
    const detail = await get(`/v1/trdp/payouts/${requested.body.data.payoutId}`);
    expect(detail.body.data).toMatchObject({ payoutId: requested.body.data.payoutId, status: 'PAID', movements: null });
    expect(detail.body.data).not.toHaveProperty('settles');
    expect((await get(`/v1/trdp/payouts/${requested.body.data.payoutId}/movements`)).body.data).toEqual({ movements: [{ eventId: expect.any(String), amount: 600.5, status: 'PAID', availableOn: null, paid: 600.5, livemode: false }], hasMore: false, livemode: false });
    expect((await get(`/v1/trdp/payouts/${requested.body.data.payoutId}`, other)).status).toBe(404);
    expect((await get('/v1/trdp/payouts', other)).body.data).toEqual({ payouts: [], hasMore: false, livemode: false });

    // The payout's stream, its books and the destination are the merchant's in the audit log's merchant filter, and no one else's.
    const log = async (m: TestMerchant, stream: string) =>
      (await call(running.baseUrl, 'GET', `/v1/audit/events?merchant=${m.merchantId}&stream=${stream}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.events.map(
        (e: { type: string }) => e.type,
      );
    const payoutStream = `payout-${requested.body.data.payoutId}`;
    expect(await log(merchant, payoutStream)).toEqual(['PayoutRequested', 'PayoutSent', 'PayoutPaid']);
    expect(await log(merchant, `payout-books-${merchant.merchantId}`)).toEqual(['PayoutBooked']);
    expect(await log(merchant, `payout-destination-${merchant.merchantId}`)).toEqual(['PayoutDestinationSet']);
    expect(await log(other, payoutStream)).toEqual([]);
  });

  it('reports what a payout settles, gross, fee and net, as JSON and CSV, summing to the payout', async () => {
    await releasedToMerchant(60.05);
    await releasedToMerchant();
    await destination('1000123456789');
    const requested = await post('/v1/trdp/payouts');
    expect(requested.body.data).toMatchObject({ amount: 1140.95, movements: null });
    const report = await get(`/v1/trdp/payouts/${requested.body.data.payoutId}/report`);
    expect(report.status).toBe(200);
    expect(report.body.data.lines).toEqual([
      { eventId: expect.any(String), type: 'AllocationReleased', source: expect.stringMatching(/^esc_/), description: expect.any(String), recordedAt: expect.any(String), gross: 600.5, fee: 60.05, net: 540.45, status: 'PAID', availableOn: null, paid: 540.45 },
      { eventId: expect.any(String), type: 'AllocationReleased', source: expect.stringMatching(/^esc_/), description: expect.any(String), recordedAt: expect.any(String), gross: 600.5, fee: 0, net: 600.5, status: 'PAID', availableOn: null, paid: 600.5 },
    ]);
    const csv = await call(running.baseUrl, 'GET', `/v1/trdp/payouts/${requested.body.data.payoutId}/report.csv`, { headers: as(merchant) });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = csv.text.trim().split('\r\n');
    expect(rows[0]).toBe('event_id,type,source,description,recorded_at,gross,fee,net,status,available_on,paid');
    expect(rows.slice(1).map((row) => Number(row.split(',').at(-1)))).toEqual([540.45, 600.5]);
    expect((await get(`/v1/trdp/payouts/${requested.body.data.payoutId}/report`, other)).status).toBe(404);
    await payoutIn(requested.body.data.payoutId, 'PAID');

    // Its movements page by page, in the report's order, summing to the payout.
    const movements = `/v1/trdp/payouts/${requested.body.data.payoutId}/movements`;
    const first = await get(`${movements}?limit=1`);
    expect(first.body.data).toEqual({ movements: [{ eventId: report.body.data.lines[0].eventId, amount: 540.45, status: 'PAID', availableOn: null, paid: 540.45, livemode: false }], hasMore: true, livemode: false });
    const second = await get(`${movements}?limit=1&startingAfter=${first.body.data.movements[0].eventId}`);
    expect(second.body.data).toEqual({ movements: [{ eventId: report.body.data.lines[1].eventId, amount: 600.5, status: 'PAID', availableOn: null, paid: 600.5, livemode: false }], hasMore: false, livemode: false });
    const unknown = await get(`${movements}?startingAfter=evt_not_one_of_them`);
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'UNKNOWN_CURSOR']);
    for (const limit of ['0', '101', 'ten']) expect([limit, (await get(`${movements}?limit=${limit}`)).status]).toEqual([limit, 400]);
    expect((await get(movements, other)).status).toBe(404);
  });

  it('returns a bounced payout to the payable, and pays the same money out again to a corrected account', async () => {
    await releasedToMerchant();
    await destination(SANDBOX_TRANSFER_ACCOUNTS.bounces);
    const bounced = await post('/v1/trdp/payouts');
    const failed = await payoutIn(bounced.body.data.payoutId, 'FAILED');
    expect(failed).toMatchObject({ amount: 600.5, failureReason: 'BOUNCED' });
    await waitFor(async () => (await balance(`merchant:${merchant.merchantId}:payable`)) === 60_050, 'the money back in the payable');
    expect(await balance('test:payouts:in-transit')).toBe(0);

    await destination('1000123456780');
    const retried = await post('/v1/trdp/payouts');
    expect(retried.body.data).toMatchObject({ amount: 600.5, destinationVersion: 3 });
    await payoutIn(retried.body.data.payoutId, 'PAID');
  });

  it('gives a statement of the payable for any period that opens, moves and closes to the santim, as JSON and CSV', async () => {
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const end = new Date(Date.now() + 60_000).toISOString();
    const whole = await get(`/v1/trdp/statement?from=${encodeURIComponent(start)}&to=${encodeURIComponent(end)}`);
    expect(whole.status).toBe(200);
    const { opening, movements, closing } = whole.body.data as { opening: number; movements: { type: string; amount: number; recordedAt: string }[]; closing: number };
    expect(opening).toBe(0);
    expect(Math.round(closing * 100)).toBe(await balance(`merchant:${merchant.merchantId}:payable`));
    expect(Math.round(movements.reduce((t, m) => t + Math.round(m.amount * 100), 0))).toBe(Math.round(closing * 100));
    expect(new Set(movements.map((m) => m.type))).toEqual(new Set(['AllocationReleased', 'PayoutRequested', 'PayoutFailed']));
    // Split anywhere, the first period's closing is the second's opening.
    const middle = movements[Math.floor(movements.length / 2)].recordedAt;
    const first = await get(`/v1/trdp/statement?from=${encodeURIComponent(start)}&to=${encodeURIComponent(middle)}`);
    const second = await get(`/v1/trdp/statement?from=${encodeURIComponent(middle)}&to=${encodeURIComponent(end)}`);
    expect(second.body.data.opening).toBe(first.body.data.closing);
    expect(second.body.data.closing).toBe(closing);

    const csv = await call(running.baseUrl, 'GET', `/v1/trdp/statement.csv?from=${encodeURIComponent(start)}&to=${encodeURIComponent(end)}`, { headers: as(merchant) });
    const rows = csv.text.trim().split('\r\n');
    expect(rows[0]).toBe('recorded_at,event_id,type,source,description,available_on,amount,balance,recovered,gross,fee,counterparty,source_description,livemode,escrow_id,order_id,reserve,reserve_available_on');
    expect(rows).toHaveLength(movements.length + 3);
    // Every line says the statement's mode, before what the line belongs to and the reserve's two columns: a test key's statement is test money.
    expect(new Set(rows.slice(1).map((row) => row.split(',').at(-5)))).toEqual(new Set(['false']));
    expect(first.body.data.livemode).toBe(false);
    // The balance is the eighth column, before those added since.
    expect(Number(rows.at(-1)!.split(',')[7])).toBe(closing);

    for (const [query, code, mentions] of [
      [`from=${encodeURIComponent(end)}&to=${encodeURIComponent(start)}`, 'BadRequestException', 'from must be before to'],
      ['from=yesterday&to=2030-01-01T00:00:00Z', 'INVALID_DATE_TIME', 'from must be an ISO 8601 date-time'],
      ['from=2030-01-01T00:00:00Z', 'INVALID_DATE_TIME', 'to must be an ISO 8601 date-time'],
      // Date.parse reads these as March 2, May 1 and the next midnight: another period than asked.
      ['from=2026-02-30T00:00:00Z&to=2026-03-10T00:00:00Z', 'INVALID_DATE_TIME', 'from 2026-02-30T00:00:00Z is not a date and time that exists'],
      ['from=2026-04-01T00:00:00Z&to=2026-04-31T00:00:00Z', 'INVALID_DATE_TIME', 'to 2026-04-31T00:00:00Z is not a date and time that exists'],
      ['from=2026-04-01T00:00:00Z&to=2026-04-30T24:00:00Z', 'INVALID_DATE_TIME', 'to 2026-04-30T24:00:00Z is not a date and time that exists'],
    ]) {
      for (const route of ['statement', 'statement.csv']) {
        const refused = await get(`/v1/trdp/${route}?${query}`);
        expect({ route, query, status: refused.status, code: refused.body.error.code }).toEqual({ route, query, status: 400, code });
        expect(refused.body.message).toContain(mentions);
      }
    }
  });

  it('fails a payout the provider refuses at once, and the money stays the merchant’s', async () => {
    await releasedToMerchant();
    await destination(SANDBOX_TRANSFER_ACCOUNTS.refused);
    const refused = await post('/v1/trdp/payouts');
    expect(await payoutIn(refused.body.data.payoutId, 'FAILED')).toMatchObject({ failureReason: 'TRANSFER_REFUSED' });
    await waitFor(async () => (await balance(`merchant:${merchant.merchantId}:payable`)) === 60_050, 'the money back in the payable');
    const list = await get('/v1/trdp/payouts');
    expect(list.body.data.payouts.map((p: { status: string }) => p.status)).toEqual(['FAILED', 'PAID', 'FAILED', 'PAID', 'PAID']);
  });
  it('lists every payout a page at a time, newest first, each once, however many there are', async () => {
    const shop = await registerMarketplace(running.baseUrl, 'Daily Paid Shop');
    await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Daily Paid Shop' }, shop);
    const requested: string[] = [];
    for (let day = 0; day < 5; day++) {
      await releasedToMerchant(undefined, shop);
      const payout = await post('/v1/trdp/payouts', {}, shop);
      expect(payout.status).toBe(201);
      requested.push(payout.body.data.payoutId);
    }

    const pages: { payouts: { payoutId: string; requestedAt: string }[]; hasMore: boolean }[] = [];
    let startingAfter: string | undefined;
    do {
      const page = await get(`/v1/trdp/payouts?limit=2${startingAfter ? `&startingAfter=${startingAfter}` : ''}`, shop);
      expect(page.status).toBe(200);
      pages.push(page.body.data);
      startingAfter = page.body.data.hasMore ? page.body.data.payouts.at(-1).payoutId : undefined;
    } while (startingAfter);
    expect(pages.map((page) => [page.payouts.length, page.hasMore])).toEqual([
      [2, true],
      [2, true],
      [1, false],
    ]);
    const listed = pages.flatMap((page) => page.payouts);
    // Each payout once, none missing, the newest first: the reverse of the order they were asked for.
    expect(listed.map((p) => p.payoutId)).toEqual([...requested].reverse());
    expect(listed.map((p) => p.requestedAt)).toEqual(listed.map((p) => p.requestedAt).sort().reverse());
    // Without a limit, a page of ten: all five (their statuses move on as the provider pays them).
    const unlimited = (await get('/v1/trdp/payouts', shop)).body.data;
    expect([unlimited.payouts.map((p: { payoutId: string }) => p.payoutId), unlimited.hasMore]).toEqual([listed.map((p) => p.payoutId), false]);

    for (const [path, m] of [
      [`/v1/trdp/payouts?startingAfter=${requested[0]}`, other],
      ['/v1/trdp/payouts?startingAfter=po_unknown', shop],
    ] as const) {
      const refused = await get(path, m);
      expect({ path, status: refused.status, code: refused.body.error.code }).toEqual({ path, status: 400, code: 'UNKNOWN_CURSOR' });
    }
    for (const limit of ['0', '101', 'ten', '2.5']) {
      const refused = await get(`/v1/trdp/payouts?limit=${limit}`, shop);
      expect({ limit, status: refused.status, message: refused.body.message }).toEqual({ limit, status: 400, message: 'limit must be an integer from 1 to 100' });
    }
  });

  it('finishes a payout of the payout account stream, once carried over, in its own stream, keeps its destination until a new one is set, and pays its money out again as a carried line', async () => {
    const legacy = await registerMarketplace(running.baseUrl, 'Legacy Shop');
    await linkToPlatform(running.baseUrl, legacy, merchant);
    const created = await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations: [{ merchantId: legacy.merchantId, amount: 600.5 }, { merchantId: merchant.courier1, amount: 400 }] }));
    const { escrowId } = created.body.data;
    await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: legacy.merchantId })).status).toBe(200);
    const payable = `merchant:${legacy.merchantId}:payable`;
    await waitFor(async () => (await balance(payable)) === 60_050, 'the release in the payable');
    // As the release before wrote them: the destination and a payout in flight in the payout account's stream (a reference no number is sealed under).
    const account = streams.payouts(legacy.merchantId);
    const destination = { kind: 'bank', institution: '946', holderName: 'Legacy Shop', accountMask: '••••0001', accountRef: 'dst_gone', accountFingerprint: 'gone' };
    const actor = { actor: { type: 'merchant' as const, id: legacy.merchantId } };
    await running.app.get<EventStore>(EVENT_STORE).append(
      account,
      [
        { type: 'PayoutDestinationSet', data: { merchantId: legacy.merchantId, version: 1, destination, setAt: new Date().toISOString() }, metadata: actor },
        {
          type: 'PayoutRequested',
          data: { merchantId: legacy.merchantId, payoutId: 'po_legacy1', amount: 60_050, destinationVersion: 1, settles: [{ eventId: 'e-legacy', amount: 60_050 }], trigger: 'on-demand', requestedAt: new Date().toISOString() },
          metadata: actor,
        },
      ],
      'no_stream',
    );
    // What the service's next start does (payout-accounts-at-start.ts), with no restart to wait for.
    expect(await carryOverPayoutAccounts(running.app.get(CommandRunner), running.app.get<EventStore>(EVENT_STORE), new Date().toISOString())).toEqual([legacy.merchantId]);
    const failed = await waitFor(async () => {
      const res = await get('/v1/trdp/payouts/po_legacy1', legacy);
      return res.body.data?.status === 'FAILED' && res.body.data;
    }, 'the payout from before to fail');
    expect(failed).toMatchObject({ failureReason: 'DESTINATION_UNAVAILABLE', movements: 1 });
    // Its failure is recorded in its own stream; the payout account stream's history stays as written, its mark last.
    const types = async (streamId: string) => (await call(running.baseUrl, 'GET', `/v1/audit/streams/${streamId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.events.map((e: { type: string }) => e.type);
    expect(await types(streams.payout('po_legacy1'))).toEqual(['PayoutCarriedOver', 'PayoutFailed']);
    expect(await types(account)).toEqual(['PayoutDestinationSet', 'PayoutRequested', 'PayoutAccountCarriedOver']);
    await waitFor(async () => (await balance(payable)) === 60_050, 'the failed payout back in the payable');
    expect((await get('/v1/trdp/payout-destination', legacy)).body.data).toMatchObject({ accountNumber: '••••0001', version: 1 });

    const set = await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Legacy Shop' }, legacy);
    expect(set.body.data).toMatchObject({ version: 2 });
    const requested = await post('/v1/trdp/payouts', {}, legacy);
    expect(requested.body.data).toMatchObject({ amount: 600.5, destinationVersion: 2, movements: null });
    // Its range starts after the payout from before took the money out: the release is before it, the return is the carried line.
    expect((await get(`/v1/trdp/payouts/${requested.body.data.payoutId}/movements`, legacy)).body.data).toEqual({ movements: [{ eventId: 'carried', amount: 600.5, status: 'CARRIED', availableOn: null, paid: 600.5, livemode: false }], hasMore: false, livemode: false });
    await waitFor(async () => (await get(`/v1/trdp/payouts/${requested.body.data.payoutId}`, legacy)).body.data.status === 'PAID', 'the payout to the new destination to be paid');
  });
});
