import { CommandBus } from '@nestjs/cqrs';
import { addisMidnight, creditAvailableAt, creditAvailableOn, DAY_MS, latestDuePeriod, type PayoutSchedule, payoutSettingsDecider, santim, scheduledPayoutId, streams } from '@app/domain';
import { CommandRunner } from '@app/infrastructure';
import { PayoutBooksDeps, RequestScheduledPayoutCommand, requestPayout } from '@app/payments';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, linkToPlatform, orderRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';
import { PayoutPeriods } from '../../libs/payments/src/work/payout-periods';

/**
 * A holding period (issue 31, item 4) over HTTP: money credited on an Addis Ababa day is available from
 * the start of the day `payoutDelayDays` later. Instants in the future are asked of the balance (`asOf`)
 * and of the payout decision itself (requestPayout with its `at`), and every date is derived from the
 * instant the ledger recorded, so nothing depends on the hour the test runs at or on its speed.
 */
describe('a holding period: credits available from their day, payouts and transfers only of available money', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  let seller: TestMerchant;
  let deps: PayoutBooksDeps;

  const headers = (m: TestMerchant, extra: Record<string, string> = {}) => ({ 'x-api-secret': m.apiSecret, ...extra });
  const post = (path: string, body: unknown, m: TestMerchant = platform, extra: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body, headers: headers(m, extra) });
  const get = (path: string, m: TestMerchant = platform, extra: Record<string, string> = {}) => call(running.baseUrl, 'GET', path, { headers: headers(m, extra) });
  const balance = async (asOf?: number, m: TestMerchant = platform, extra: Record<string, string> = {}) => {
    const res = await get(`/v1/trdp/balance${asOf === undefined ? '' : `?asOf=${new Date(asOf).toISOString()}`}`, m, extra);
    expect(res.status).toBe(200);
    return res.body.data as { available: number; onHold: number; onHoldByDay: { availableOn: string; amount: number }[] };
  };
  const statement = async (m: TestMerchant = platform, extra: Record<string, string> = {}) =>
    (await get('/v1/trdp/statement?from=2026-01-01T00:00:00Z&to=2036-01-01T00:00:00Z', m, extra)).body.data.movements as { eventId: string; type: string; recordedAt: string; amount: number; availableOn: string | null }[];

  /** All of a payout's movements, two a page, each page asked after the last eventId of the one before. */
  const movements = async (payoutId: string, m: TestMerchant) => {
    const all: { eventId: string; amount: number; status: string; availableOn: string | null; paid: number }[] = [];
    for (let startingAfter = ''; ; ) {
      const page = await get(`/v1/trdp/payouts/${payoutId}/movements?limit=2${startingAfter && `&startingAfter=${startingAfter}`}`, m);
      expect(page.status).toBe(200);
      all.push(...page.body.data.movements);
      if (!page.body.data.hasMore) return all;
      startingAfter = all.at(-1)!.eventId;
    }
  };

  /** A payout's report as JSON, and the paid column of its CSV and its movements pages, which must say the same. */
  const report = async (payoutId: string, m: TestMerchant = platform) => {
    const json = await get(`/v1/trdp/payouts/${payoutId}/report`, m);
    expect(json.status).toBe(200);
    const csv = await get(`/v1/trdp/payouts/${payoutId}/report.csv`, m);
    const [header, ...rows] = csv.text.trim().split('\r\n');
    expect(header).toBe('event_id,type,source,description,recorded_at,gross,fee,net,status,available_on,paid');
    const lines = json.body.data.lines as { eventId: string; type: string; recordedAt: string; status: string; net: number; paid: number; availableOn: string | null }[];
    expect(rows.map((row) => row.split(',').slice(-3))).toEqual(lines.map((l) => [l.status, l.availableOn ?? '', String(l.paid)]));
    const paged = await movements(payoutId, m);
    expect(paged).toEqual(lines.map(({ eventId, net, status, availableOn, paid }) => ({ eventId, amount: net, status, availableOn, paid, livemode: false })));
    return { lines, paidCsv: rows.map((row) => Number(row.split(',').at(-1))), movements: paged };
  };

  /** A paid plain order of `amount` ETB: its money is credited to the merchant's payable. */
  async function earn(amount: number): Promise<void> {
    const before = (await statement()).length;
    const created = await post('/v1/trdp/order', orderRequest({ amount, items: [{ productId: 'sku-1', item_name: 'Basket', quantity: 1, unit_price: amount }] }));
    expect(created.status).toBe(201);
    expect((await post(`/v1/sandbox/orders/${created.body.data.order_id}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await statement()).length > before, 'the order money to reach the payable');
  }

  beforeAll(async () => {
    // The provider is asked about a payout sent (how the sandbox tells it paid) only by a reconcile pass:
    // passes every 200 ms, so a scheduled payout is seen paid without waiting a minute for one.
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' } });
    platform = await registerMerchant(running.baseUrl, 'Holding Marketplace');
    seller = await registerMerchant(running.baseUrl, 'Held Seller');
    await linkToPlatform(running.baseUrl, seller, platform);
    deps = running.app.get(PayoutBooksDeps);
    await earn(300);
  });
  afterAll(() => running?.close());

  it('sets the holding period in the payout settings, 0 to 30 days, refusing any other with its own code and writing nothing', async () => {
    expect((await get('/v1/trdp/payout-settings')).body.data.payoutDelayDays).toBe(0);
    for (const payoutDelayDays of [31, -1]) {
      const refused = await post('/v1/trdp/payout-settings', { schedule: 'manual', payoutDelayDays });
      expect([refused.status, refused.body.error.code]).toEqual([400, 'PAYOUT_DELAY_OUT_OF_RANGE']);
    }
    expect((await post('/v1/trdp/payout-settings', { schedule: 'manual', payoutDelayDays: 1.5 })).status).toBe(400);
    expect((await get('/v1/trdp/payout-settings')).body.data).toMatchObject({ version: 0, payoutDelayDays: 0 });
    const set = await post('/v1/trdp/payout-settings', { schedule: 'manual', payoutDelayDays: 2 });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ version: 1, schedule: 'manual', payoutDelayDays: 2 });
  });

  it('holds what is credited after it until its day, counts a debit at once, and pays each santim once, never early', async () => {
    await earn(200);
    const [released, held] = (await statement()).filter((m) => m.type === 'OrderPaid');
    // Money credited before the period was set keeps none: available from its own day.
    expect(released.availableOn).toBe(creditAvailableOn(Date.parse(released.recordedAt), 0));
    expect(held.availableOn).toBe(creditAvailableOn(Date.parse(held.recordedAt), 2));
    const availableAt = creditAvailableAt(Date.parse(held.recordedAt), 2);
    expect(availableAt - Date.parse(held.recordedAt)).toBeGreaterThan(DAY_MS);

    expect(await balance()).toMatchObject({ available: 300, onHold: 200, onHoldByDay: [{ availableOn: held.availableOn, amount: 200 }] });
    expect(await balance(availableAt - 1)).toMatchObject({ available: 300, onHold: 200 });
    expect(await balance(availableAt)).toMatchObject({ available: 500, onHold: 0, onHoldByDay: [] });

    // A transfer out is a debit: it counts at once, and it may spend only what is available.
    const tooMuch = await post('/v1/trdp/transfers', { to: seller.merchantId, amount: 300.01, description: 'Bonus' });
    expect([tooMuch.status, tooMuch.body.error.code]).toEqual([409, 'INSUFFICIENT_AVAILABLE_BALANCE']);
    expect((await post('/v1/trdp/transfers', { to: seller.merchantId, amount: 50, description: 'Bonus' })).status).toBe(201);
    expect(await balance()).toMatchObject({ available: 250, onHold: 200 });
    // The seller keeps no holding period of its own: what it was given is available to it.
    expect(await balance(undefined, seller)).toMatchObject({ available: 50, onHold: 0 });
    const transferLine = (await statement()).find((m) => m.type === 'TransferCreated')!;
    expect(transferLine).toMatchObject({ amount: -50, availableOn: null });

    expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Holding Marketplace' })).status).toBe(200);
    const first = await post('/v1/trdp/payouts', {});
    expect(first.status).toBe(201);
    expect(first.body.data.amount).toBe(250);
    const nothing = await post('/v1/trdp/payouts', {});
    expect([nothing.status, nothing.body.error.code]).toEqual([409, 'NOTHING_TO_PAY_OUT']);
    expect(await balance()).toMatchObject({ available: 0, onHold: 200 });

    // The instant before its day the held money is still not paid; from its start it is, once.
    const ask = (payoutId: string, at: number) => requestPayout(deps, { merchantId: platform.merchantId, payoutId, trigger: 'on-demand', at: new Date(at).toISOString() }, { actor: { type: 'merchant', id: platform.merchantId } });
    await expect(ask('po_held_early', availableAt - 1)).rejects.toMatchObject({ code: 'NOTHING_TO_PAY_OUT' });
    const second = await ask('po_held_due', availableAt);
    expect(second?.data.amount).toBe(20_000);
    await expect(ask('po_held_again', availableAt + DAY_MS)).rejects.toMatchObject({ code: 'NOTHING_TO_PAY_OUT' });

    // Each payout's report says what it paid, summing to it: the first paid what was available and shows the
    // held 200 as held until its day; the second paid that 200, as released, with when it was earned and freed.
    const [transfer, orders] = [(await statement()).find((m) => m.type === 'TransferCreated')!, (await statement()).filter((m) => m.type === 'OrderPaid')];
    const line = (m: { eventId: string; type: string }, status: string, net: number, paid: number, availableOn: string | null) => ({ eventId: m.eventId, type: m.type, status, net, paid, availableOn });
    const firstReport = await report(first.body.data.payoutId);
    expect(firstReport.lines.map(({ eventId, type, status, net, paid, availableOn }) => ({ eventId, type, status, net, paid, availableOn }))).toEqual([
      line(orders[0], 'PAID', 300, 300, null),
      line(orders[1], 'HELD', 200, 0, held.availableOn),
      line(transfer, 'PAID', -50, -50, null),
    ]);
    expect(firstReport.paidCsv).toEqual([300, 0, -50]);
    const secondReport = await report('po_held_due');
    expect(secondReport.lines).toEqual([expect.objectContaining({ ...line(held, 'RELEASED', 200, 200, held.availableOn), recordedAt: held.recordedAt })]);
    expect(secondReport.paidCsv).toEqual([200]);
    for (const [{ lines, movements: paged }, amount] of [[firstReport, 250], [secondReport, 200]] as const) {
      expect(Math.round(lines.reduce((sum, l) => sum + l.paid * 100, 0))).toBe(amount * 100);
      expect(Math.round(paged.reduce((sum, l) => sum + l.paid * 100, 0))).toBe(amount * 100);
    }
  });

  it("keeps an account's own holding period, set acting for it, apart from the platform's", async () => {
    const accountId = (await post('/v1/trdp/accounts', { name: 'Held Account', type: 'individual', reference: 'held-account' })).body.data.accountId as string;
    const forAccount = { 'x-account-id': accountId };
    expect((await post('/v1/trdp/payout-settings', { schedule: 'manual', payoutDelayDays: 5 }, platform, forAccount)).status).toBe(200);
    expect((await get('/v1/trdp/payout-settings', platform, forAccount)).body.data.payoutDelayDays).toBe(5);
    expect((await get('/v1/trdp/payout-settings')).body.data.payoutDelayDays).toBe(2);

    // The platform's own allocation is held for its 2 days, the account's for its 5.
    const platformHeld = (await balance()).onHold;
    const allocations = [{ merchantId: accountId, amount: 600.5 }, { merchantId: platform.merchantId, amount: 400 }];
    const { escrowId } = (await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }))).body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    for (const merchantId of [accountId, platform.merchantId]) expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId })).status).toBe(200);

    const released = async (extra: Record<string, string> = {}) =>
      waitFor(async () => (await statement(platform, extra)).find((m) => m.type === 'AllocationReleased'), 'the release to reach the payable');
    const [accountLine, platformLine] = [await released(forAccount), await released()];
    expect(accountLine.availableOn).toBe(creditAvailableOn(Date.parse(accountLine.recordedAt), 5));
    expect(platformLine.availableOn).toBe(creditAvailableOn(Date.parse(platformLine.recordedAt), 2));
    expect(await balance(undefined, platform, forAccount)).toMatchObject({ available: 0, onHold: 600.5, onHoldByDay: [{ availableOn: accountLine.availableOn, amount: 600.5 }] });
    expect(await balance(creditAvailableAt(Date.parse(accountLine.recordedAt), 5), platform, forAccount)).toMatchObject({ available: 600.5, onHold: 0 });
    const platformNow = await balance();
    expect(platformNow.onHold).toBe(platformHeld + 400);
    expect(platformNow.onHoldByDay.find((day) => day.availableOn === platformLine.availableOn)!.amount).toBeGreaterThanOrEqual(400);
  });

  it("pays a platform's fees at once with its available payable, and leaves its own held credit for its day", async () => {
    const feePlatform = await registerMerchant(running.baseUrl, 'Fee Marketplace');
    await linkToPlatform(running.baseUrl, seller, feePlatform);
    /** Santim, from the audit API. */
    const ledger = async (account: string) => {
      const res = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
      return res.body.data.accounts.length ? Math.round(res.body.data.accounts[0].balance * 100) : 0;
    };
    const [payable, fees] = [`merchant:${feePlatform.merchantId}:payable`, `merchant:${feePlatform.merchantId}:fees`];

    // 100 ETB earned before any holding period: available at once.
    const order = await post('/v1/trdp/order', orderRequest({ amount: 100, items: [{ productId: 'sku-1', item_name: 'Basket', quantity: 1, unit_price: 100 }] }), feePlatform);
    expect((await post(`/v1/sandbox/orders/${order.body.data.order_id}/complete`, { outcome: 'PAID' }, feePlatform)).status).toBe(200);
    await waitFor(async () => (await ledger(payable)) === 10_000, 'the order money to reach the payable');
    expect((await post('/v1/trdp/payout-settings', { schedule: 'manual', payoutDelayDays: 3 }, feePlatform)).status).toBe(200);

    // Then an escrow: the seller's 600.50 with the platform's 60.05 commission, and 400 of the platform's own, released.
    const allocations = [{ merchantId: seller.merchantId, amount: 600.5, fee: 60.05 }, { merchantId: feePlatform.merchantId, amount: 400 }];
    const { escrowId } = (await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }), feePlatform)).body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' }, feePlatform)).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`, feePlatform)).body.data.status === 'HELD', 'the escrow to be paid');
    for (const { merchantId } of allocations) expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId }, feePlatform)).status).toBe(200);
    await waitFor(async () => (await ledger(payable)) === 50_000 && (await ledger(fees)) === 6_005, 'the release and its fee to reach the books');

    // The fee is never held; the platform's own release is, for its 3 days.
    const lines = await statement(feePlatform);
    const own = lines.find((m) => m.type === 'AllocationReleased' && m.amount === 400)!;
    const fee = lines.find((m) => m.type === 'AllocationReleased' && m.amount === 60.05)!;
    expect(own.availableOn).toBe(creditAvailableOn(Date.parse(own.recordedAt), 3));
    expect(fee.availableOn).toBe(creditAvailableOn(Date.parse(fee.recordedAt), 0));
    expect(await balance(undefined, feePlatform)).toMatchObject({ available: 160.05, onHold: 400, onHoldByDay: [{ availableOn: own.availableOn, amount: 400 }], feesEarned: 60.05 });

    // The payout takes the fees whole and the available payable, and leaves the held 400 in the payable.
    expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Fee Marketplace' }, feePlatform)).status).toBe(200);
    const first = await post('/v1/trdp/payouts', {}, feePlatform);
    expect([first.status, first.body.data.amount]).toEqual([201, 160.05]);
    await waitFor(async () => (await ledger(fees)) === 0 && (await ledger(payable)) === 40_000, 'the payout to leave the fees and the available payable');
    expect(await balance(undefined, feePlatform)).toMatchObject({ available: 0, onHold: 400, feesEarned: 0 });

    // The held credit is paid from its day, once, and only it.
    const availableAt = creditAvailableAt(Date.parse(own.recordedAt), 3);
    const ask = (payoutId: string, at: number) => requestPayout(deps, { merchantId: feePlatform.merchantId, payoutId, trigger: 'on-demand', at: new Date(at).toISOString() }, { actor: { type: 'merchant', id: feePlatform.merchantId } });
    await expect(ask('po_fee_held_early', availableAt - 1)).rejects.toMatchObject({ code: 'NOTHING_TO_PAY_OUT' });
    const due = await ask('po_fee_held_due', availableAt);
    expect(due?.data).toMatchObject({ amount: 40_000 });
    expect(due?.data).not.toHaveProperty('fees');

    // The first payout's report: the fee paid, the own release held; the next one's: that release, paid.
    const statuses = async (payoutId: string) => (await report(payoutId, feePlatform)).lines.map((l) => [l.type, l.status, l.net, l.paid, l.availableOn]);
    expect(await statuses(first.body.data.payoutId)).toEqual([
      ['OrderPaid', 'PAID', 100, 100, null],
      ['AllocationReleased', 'PAID', 60.05, 60.05, null],
      ['AllocationReleased', 'HELD', 400, 0, own.availableOn],
    ]);
    expect(await statuses('po_fee_held_due')).toEqual([['AllocationReleased', 'RELEASED', 400, 400, own.availableOn]]);
  });

  it('queues and requests no scheduled payout while all the money is on hold, and the first period from its day pays it, once', async () => {
    const shop = await registerMerchant(running.baseUrl, 'Held Schedule Shop');
    expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Held Schedule Shop' }, shop)).status).toBe(200);
    // A daily schedule at this hour, in force since yesterday (as payout-settings.spec.ts sets one), holding credits 2 days.
    const schedule: PayoutSchedule = { kind: 'daily', hour: (new Date().getUTCHours() + 3) % 24 };
    const settings = { schedule, minimumAmount: santim(1), callbackUrl: null, payoutDelayDays: 2 };
    await running.app
      .get(CommandRunner)
      .run(
        streams.payoutSettings(shop.merchantId),
        payoutSettingsDecider,
        { type: 'SetPayoutSettings', data: { merchantId: shop.merchantId, settings, at: new Date(Date.now() - DAY_MS).toISOString() } },
        { actor: { type: 'merchant', id: shop.merchantId } },
      );
    const order = await post('/v1/trdp/order', orderRequest({ amount: 120, items: [{ productId: 'sku-1', item_name: 'Basket', quantity: 1, unit_price: 120 }] }), shop);
    expect((await post(`/v1/sandbox/orders/${order.body.data.order_id}/complete`, { outcome: 'PAID' }, shop)).status).toBe(200);
    const credit = await waitFor(async () => (await statement(shop)).find((m) => m.type === 'OrderPaid'), 'the order money to reach the payable');
    expect(await balance(undefined, shop)).toMatchObject({ available: 0, onHold: 120 });

    // Today's period is due, and all of its money is on hold: the scheduler's pass queues nothing for it,
    // and its job, run anyway (as a timer queued before would), requests nothing.
    const today = latestDuePeriod(schedule, Date.now())!;
    const periods = running.app.get(PayoutPeriods);
    expect((await periods.due(Date.now())).filter((job) => job.id === shop.merchantId)).toEqual([]);
    await running.app.get(CommandBus).execute(new RequestScheduledPayoutCommand(shop.merchantId, today.key));
    const books = streams.payoutBooks(shop.merchantId);
    expect(await deps.store.readStream(books)).toEqual([]);
    expect((await get('/v1/trdp/payouts', shop)).body.data).toEqual({ payouts: [], hasMore: false, livemode: false });

    // The period of the day before the money's day still pays nothing; the first period from its day pays all of it.
    const availableAt = creditAvailableAt(Date.parse(credit.recordedAt), 2);
    const periodAt = (instant: number) => latestDuePeriod(schedule, instant)!;
    const dueOf = (day: number) => periodAt(addisMidnight(day) + schedule.hour * 3_600_000);
    const scheduled = (period: { key: string; dueAt: number }) =>
      requestPayout(deps, { merchantId: shop.merchantId, payoutId: scheduledPayoutId(shop.merchantId, period.key), trigger: 'schedule', period: period.key, at: new Date(period.dueAt).toISOString() }, { actor: { type: 'system', id: 'payout-schedule' } });
    expect(await scheduled(dueOf(availableAt - DAY_MS))).toBeUndefined();
    const paying = dueOf(availableAt);
    const requested = await scheduled(paying);
    expect(requested?.data).toMatchObject({ amount: 12_000, trigger: 'schedule', period: paying.key, requestedAt: new Date(paying.dueAt).toISOString() });
    const payoutId = scheduledPayoutId(shop.merchantId, paying.key);
    const paid = await waitFor(async () => {
      const payout = await get(`/v1/trdp/payouts/${payoutId}`, shop);
      return payout.body.data?.status === 'PAID' && payout.body.data;
    }, 'the scheduled payout to be paid');
    expect(paid).toMatchObject({ amount: 120, trigger: 'schedule' });
    const events = await deps.store.readStream(streams.payout(payoutId));
    expect(events.map((e) => e.type)).toEqual(['PayoutRequested', 'PayoutSent', 'PayoutPaid']);
    expect((await deps.store.readStream(books)).map((e) => e.type)).toEqual(['PayoutBooked']);
    expect((await report(payoutId, shop)).lines.map((l) => [l.eventId, l.status, l.paid])).toEqual([[credit.eventId, 'PAID', 120]]);
    // Paid once: the period again, or the next one, pays nothing more.
    expect(await scheduled(paying)).toMatchObject({ data: { payoutId, amount: 12_000 } });
    expect(await scheduled(periodAt(paying.dueAt + DAY_MS))).toBeUndefined();
  });
});
