import { latestDuePeriod, type PayoutSchedule, scheduledPayoutId, streams } from '@app/domain';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@app/event-store';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { CallbackReceiver } from '../support/callback-receiver';
import { ConsoleClient } from '../support/console-client';
import { escrowRequest, orderRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

// Tuesday 1 January 2030, noon in Addis Ababa; ten days later is Friday the 11th, noon.
const TODAY = '2030-01-01T09:00:00.000Z';
const TEN_DAYS_LATER = '2030-01-11T09:00:00.000Z';
const FRIDAYS_AT_10: PayoutSchedule = { kind: 'weekly', hour: 10, weekday: 'friday' };

/**
 * Test clocks (issue 38, item 5; docs/guides/test-clocks.md): a seller account, an escrow released today
 * with a 7-day holding period and a weekly Friday schedule, an escrow released by itself five days after
 * its payment and a checkout left unpaid, all on one test clock; advancing it ten days pays the seller on
 * the second Friday (the first finds its money still held) the amount released today, expires the
 * checkout at its expiry and releases the second escrow at its instant, each event dated by the clock
 * and naming it, appended at the real time.
 */
describe('test clocks', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  let receiver: CallbackReceiver;
  let store: EventStore;
  const as = (m: TestMerchant, extra: Record<string, string> = {}) => ({ 'x-api-secret': m.apiSecret, ...extra });
  const post = (path: string, body: unknown, m = platform, extra: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body, headers: as(m, extra) });
  const get = (path: string, m = platform, extra: Record<string, string> = {}) => call(running.baseUrl, 'GET', path, { headers: as(m, extra) });
  const created = <T = Record<string, any>>(res: { status: number; body: any }): T => {
    expect(res.body.error).toBeUndefined();
    expect(res.status).toBe(201);
    return res.body.data as T;
  };
  const eventsOf = async (streamId: string, type: string): Promise<RecordedEvent<Record<string, any>>[]> =>
    (await store.readStream(streamId)).filter((e) => e.type === type) as RecordedEvent<Record<string, any>>[];
  const paidEscrow = async (testClockId: string, allocations: unknown[], extra: Record<string, unknown> = {}) => {
    const { escrowId } = created(await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations, testClockId, ...extra })));
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    return escrowId as string;
  };

  beforeAll(async () => {
    // A payout sent is settled by the sandbox after 30 ms of real time, asked about by passes every 200 ms; the audit
    // console's alerts come after 7 days below zero and 5 days of dispute.
    running = await startApp({
      env: { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200', NEGATIVE_BALANCE_ALERT_DAYS: '7', DISPUTE_MAX_DAYS: '5' },
    });
    store = running.app.get<EventStore>(EVENT_STORE);
    platform = await registerMerchant(running.baseUrl, 'Clockwork Marketplace');
    receiver = await new CallbackReceiver().start();
  });
  afterAll(async () => {
    await running?.close();
    await receiver?.close();
  });

  it('creates a clock at its frozen time in test mode only, and hides it from every other tenant', async () => {
    const clock = created(await post('/v1/trdp/test-clocks', { frozenTime: '2030-01-01T12:00:00+03:00', name: 'Isolation' }));
    expect(clock).toEqual({ testClockId: expect.stringMatching(/^clock_[0-9a-f]{24}$/), name: 'Isolation', frozenTime: TODAY, status: 'ready', createdAt: expect.any(String), livemode: false });
    expect((await get(`/v1/trdp/test-clocks/${clock.testClockId}`)).body.data).toEqual(clock);

    const live = await registerMerchant(running.baseUrl, 'Clockwork Marketplace', 'live');
    const liveSeller = { name: 'Live Seller', type: 'individual', testClockId: clock.testClockId };
    for (const refused of [await post('/v1/trdp/test-clocks', { frozenTime: TODAY }, live), await post('/v1/trdp/accounts', liveSeller, live)]) {
      expect([refused.status, refused.body.error.code]).toEqual([400, 'TEST_CLOCK_LIVE_MODE']);
    }
    expect((await get('/v1/trdp/accounts', live)).body.data.accounts).toEqual([]);
    const other = await registerMerchant(running.baseUrl, 'Other Marketplace');
    expect((await get(`/v1/trdp/test-clocks/${clock.testClockId}`, other)).status).toBe(404);
    expect((await post(`/v1/trdp/test-clocks/${clock.testClockId}/advance`, { frozenTime: TEN_DAYS_LATER }, other)).status).toBe(404);
    const borrowed = await post('/v1/trdp/order', orderRequest({ testClockId: clock.testClockId }), other);
    expect([borrowed.status, borrowed.body.error.code]).toEqual([404, 'ABC_001']);
    expect((await get('/v1/trdp/orders?limit=5', other)).body.data.orders).toEqual([]);

    // Closed bodies; a clock only goes forward.
    const unknown = await post('/v1/trdp/test-clocks', { frozenTime: TODAY, speed: 2 });
    expect(unknown.status).toBe(400);
    const back = await post(`/v1/trdp/test-clocks/${clock.testClockId}/advance`, { frozenTime: '2029-12-31T09:00:00Z' });
    expect([back.status, back.body.error.code]).toEqual([400, 'TEST_CLOCK_TIME_NOT_LATER']);
    expect((await get(`/v1/trdp/test-clocks/${clock.testClockId}`)).body.data).toMatchObject({ frozenTime: TODAY, status: 'ready' });
  });

  it('pays out on the right Friday for the right amount, and expires a checkout and releases an escrow at their times', async () => {
    const { testClockId } = created(await post('/v1/trdp/test-clocks', { frozenTime: TODAY, name: 'Ten days' }));
    const seller = created(await post('/v1/trdp/accounts', { name: 'Almaz Tesfaye', type: 'individual', tin: '0000000001', reference: 'clock-seller', testClockId }));
    const forSeller = { 'x-account-id': seller.accountId as string };
    expect(seller.createdAt).toBe(TODAY);
    expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Almaz Tesfaye' }, platform, forSeller)).status).toBe(200);
    const settings = await post('/v1/trdp/payout-settings', { schedule: 'weekly', weekday: 'friday', hour: 10, payoutDelayDays: 7, callbackURL: receiver.url }, platform, forSeller);
    expect(settings.status).toBe(200);

    // Released today: held for 7 days, so the first Friday (the 4th) pays nothing and the second (the 11th) pays it.
    const releasedToday = await paidEscrow(testClockId, [{ merchantId: seller.accountId, amount: 600.5 }], { amount: 600.5, items: [{ productId: 'sku-1', item_name: 'Coffee', quantity: 1, unit_price: 600.5 }] });
    const release = await post(`/v1/trdp/escrow/${releasedToday}/release`, { merchantId: seller.accountId });
    expect(release.status).toBe(200);
    // Released by itself five days after its payment (the 6th): still held on the 11th.
    const releasedLater = await paidEscrow(testClockId, [{ merchantId: seller.accountId, amount: 250 }], { amount: 250, items: [{ productId: 'sku-2', item_name: 'Tea', quantity: 1, unit_price: 250 }], releaseAfterDays: 5 });
    // A checkout left unpaid: it expires 15 minutes after its creation, on the clock.
    const checkout = created(await post('/v1/trdp/order', orderRequest({ testClockId, expiredAt: '2030-01-01T09:15:00Z' })));
    const balance = async () => (await get('/v1/trdp/balance', platform, forSeller)).body.data as { asOf: string; available: number; onHold: number };
    expect(await waitFor(async () => { const now = await balance(); return now.onHold > 0 && now; }, 'the release to reach the seller')).toMatchObject({ asOf: TODAY, available: 0, onHold: 600.5 });

    const advanced = await post(`/v1/trdp/test-clocks/${testClockId}/advance`, { frozenTime: TEN_DAYS_LATER });
    expect(advanced.body.error).toBeUndefined();
    expect([advanced.status, advanced.body.data]).toEqual([200, expect.objectContaining({ testClockId, frozenTime: TEN_DAYS_LATER, status: 'ready' })]);

    // The payout: the second Friday's period, of what was released today only, requested at 10:00 that Friday.
    const secondFriday = latestDuePeriod(FRIDAYS_AT_10, Date.parse(TEN_DAYS_LATER))!;
    expect(new Date(secondFriday.dueAt).toISOString()).toBe('2030-01-11T07:00:00.000Z');
    const payoutId = scheduledPayoutId(seller.accountId, secondFriday.key);
    const [requested, ...noOther] = await eventsOf(streams.payout(payoutId), 'PayoutRequested');
    expect(noOther).toEqual([]);
    expect(requested.data).toMatchObject({ payoutId, merchantId: seller.accountId, amount: 600_50, trigger: 'schedule' });
    expect(requested.metadata).toMatchObject({ testClockId, businessAt: '2030-01-11T07:00:00.000Z' });
    const firstFriday = scheduledPayoutId(seller.accountId, latestDuePeriod(FRIDAYS_AT_10, Date.parse('2030-01-05T00:00:00Z'))!.key);
    expect(await store.readStream(streams.payout(firstFriday))).toEqual([]);

    // Sent to the sandbox (in real time: the provider's own time is no clock's), paid, and called back.
    const paid = await waitFor(async () => receiver.received.map((c) => JSON.parse(c.body)).find((body) => body.status === 'PAYOUT_PAID' && body.payoutId === payoutId), 'the PAYOUT_PAID callback');
    expect(paid).toMatchObject({ merchantId: seller.accountId, amount: 600.5, currency: 'ETB' });
    expect(receiver.received.map((c) => JSON.parse(c.body)).filter((body) => body.payoutId).map((body) => body.status)).toEqual(['PAYOUT_PAID']);
    expect(await balance()).toMatchObject({ asOf: TEN_DAYS_LATER, available: 0, onHold: 250 });

    // The checkout expired at its expiry, the second escrow released at its instant, each on the clock.
    expect((await get(`/v1/trdp/order/${checkout.order_id}`)).body.data.status).toBe('EXPIRED');
    const [expired] = await eventsOf(streams.order(checkout.order_id), 'OrderExpired');
    expect(expired.metadata).toMatchObject({ testClockId, businessAt: '2030-01-01T09:15:00.000Z' });
    const [paidLater] = await eventsOf(streams.escrow(releasedLater), 'EscrowFunded');
    const [automatic] = await eventsOf(streams.escrow(releasedLater), 'AllocationReleased');
    expect(automatic.data).toMatchObject({ automatic: true, releasedAt: new Date(Date.parse(paidLater.data.paidAt) + 5 * 86_400_000).toISOString() });
    expect(paidLater.data.paidAt).toBe(TODAY);
    // Appended at the real time: the hash chain and the log's order are the real ones.
    for (const event of [requested, expired, automatic]) expect(event.recordedAt.getTime()).toBeLessThan(Date.parse(TODAY));
    expect((await get(`/v1/trdp/test-clocks/${testClockId}`)).body.data).toMatchObject({ frozenTime: TEN_DAYS_LATER, status: 'ready' });
  });

  it("answers the test clock of what it attached, and counts the audit console's alerts of those objects on their clock", async () => {
    const { testClockId } = created(await post('/v1/trdp/test-clocks', { frozenTime: TODAY, name: 'Alerts' }));
    const seller = created(await post('/v1/trdp/accounts', { name: 'Hirut Leather', type: 'individual', reference: 'clock-alerts', testClockId }));
    const realTimeSeller = created(await post('/v1/trdp/accounts', { name: 'Dawit Honey', type: 'individual', reference: 'real-time-seller' }));
    expect([seller.testClockId, realTimeSeller.testClockId]).toEqual([testClockId, null]);
    const listed = (await get('/v1/trdp/accounts?limit=100')).body.data.accounts as { accountId: string; testClockId: string | null }[];
    expect(listed.filter((a) => [seller.accountId, realTimeSeller.accountId].includes(a.accountId)).map((a) => a.testClockId).sort()).toEqual([testClockId, null].sort());
    const checkout = created(await post('/v1/trdp/order', orderRequest({ testClockId })));
    const realTimeOrder = created(await post('/v1/trdp/order', orderRequest()));
    expect([checkout.testClockId, realTimeOrder.testClockId, (await get(`/v1/trdp/order/${checkout.order_id}`)).body.data.testClockId]).toEqual([testClockId, null, testClockId]);
    const realTimeEscrow = created(await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations: [{ merchantId: realTimeSeller.accountId, amount: 1000.5 }] })));
    expect(realTimeEscrow.testClockId).toBeNull();

    // An escrow pays only accounts on its own clock: not one on another clock, nor one on a clock or on the real time when it is not.
    const otherClock = created(await post('/v1/trdp/test-clocks', { frozenTime: TODAY, name: 'Another' })).testClockId as string;
    const mixed = escrowRequest({ callbackURL: undefined, allocations: [{ merchantId: seller.accountId, amount: 1000.5 }] });
    for (const [clockOfEscrow, accountId, message] of [
      [otherClock, seller.accountId, `Account ${seller.accountId} runs on test clock ${testClockId} and the escrow on test clock ${otherClock}`],
      [undefined, seller.accountId, `Account ${seller.accountId} runs on test clock ${testClockId} and the escrow on the real time`],
      [testClockId, realTimeSeller.accountId, `Account ${realTimeSeller.accountId} runs on the real time and the escrow on test clock ${testClockId}`],
    ]) {
      const refused = await post('/v1/trdp/escrow/order', { ...mixed, testClockId: clockOfEscrow, allocations: [{ merchantId: accountId, amount: 1000.5 }] });
      expect([refused.status, refused.body.error.code, refused.body.error.message]).toEqual([400, 'TEST_CLOCK_MISMATCH', expect.stringContaining(message)]);
    }
    // Nothing was written: the same order on the seller's own clock is created.
    expect(created(await post('/v1/trdp/escrow/order', { ...mixed, testClockId })).testClockId).toBe(testClockId);

    // Below zero from the clock's first day: 90 ETB released (10 ETB of fee), 100 ETB reversed with the seller bearing all of it.
    const returned = await paidEscrow(testClockId, [{ merchantId: seller.accountId, amount: 100, fee: 10 }], { amount: 100, items: [{ productId: 'sku-3', item_name: 'Bag', quantity: 1, unit_price: 100 }] });
    expect((await get(`/v1/trdp/escrow/${returned}`)).body.data.testClockId).toBe(testClockId);
    expect((await post(`/v1/trdp/escrow/${returned}/release`, { merchantId: seller.accountId })).status).toBe(200);
    expect((await post(`/v1/trdp/escrow/${returned}/reversals`, { merchantId: seller.accountId, reason: 'The customer returned the bag' })).status).toBe(201);
    const owing = async () => ((await get('/v1/trdp/accounts?balance=negative&limit=100')).body.data.accounts as { accountId: string; negativeBalance: { available: number } }[]).find((a) => a.accountId === seller.accountId);
    expect((await waitFor(owing, "the reversal to take the seller below zero")).negativeBalance.available).toBe(-10);
    // Disputed on the clock's first day.
    const disputed = await paidEscrow(testClockId, [{ merchantId: seller.accountId, amount: 250 }], { amount: 250, orderId: 'MKT-CLOCK-DISPUTE', items: [{ productId: 'sku-4', item_name: 'Belt', quantity: 1, unit_price: 250 }] });
    expect((await post(`/v1/trdp/escrow/${disputed}/dispute`, { merchantId: seller.accountId, reason: 'wrong colour' })).status).toBe(200);

    const auditorKey = (await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Clock audit' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.auditorKey;
    const staff = new ConsoleClient(running.baseUrl);
    expect((await staff.post('/audit/sign-in', { key: auditorKey }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
    const alerts = async () => ({ negative: (await staff.get('/audit/negative-balances?mode=test')).text, disputes: (await staff.get('/audit/disputes')).text });
    // Today on the clock: neither has lasted long enough.
    const today = await alerts();
    expect([today.negative.includes(seller.accountId), today.disputes.includes('MKT-CLOCK-DISPUTE')]).toEqual([false, false]);

    expect((await post(`/v1/trdp/test-clocks/${testClockId}/advance`, { frozenTime: TEN_DAYS_LATER })).status).toBe(200);
    // Ten days later on the clock (the real time has not moved): both are overdue, counted to the clock's time.
    const later = await waitFor(async () => {
      const now = await alerts();
      return now.negative.includes(seller.accountId) && now.disputes.includes('MKT-CLOCK-DISPUTE') && now;
    }, "the alerts to count to the clock's time");
    const row = (page: string, marker: string) => page.split('<tr>').find((r) => r.includes(marker))!;
    expect(row(later.negative, seller.accountId)).toContain('-10.00 ETB');
    expect(row(later.negative, seller.accountId)).toContain(`Test clock ${testClockId}, now 2030-01-11 09:00:00 UTC`);
    expect(row(later.negative, seller.accountId)).toMatch(/class="num">10<\/td>/);
    expect(row(later.disputes, 'MKT-CLOCK-DISPUTE')).toContain('wrong colour');
    expect(row(later.disputes, 'MKT-CLOCK-DISPUTE')).toMatch(/class="num">10<\/td>/);
    expect(later.negative).not.toContain(realTimeSeller.accountId);
  });
});
