import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { verifyCallback } from '@app/callback-receiver';
import { latestDuePeriod, type PayoutSchedule, payoutSettingsDecider, santim, scheduledPayoutId, streams, WEEKDAYS } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import { carryOverPayoutAccounts, PAYMENT_WORK, type PaymentJob, paymentJobId, SANDBOX_TRANSFER_ACCOUNTS } from '@app/payments';
import type { Scheduler } from '@app/scheduling';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { CallbackReceiver } from '../support/callback-receiver';
import { ConsoleClient, invitationToken } from '../support/console-client';
import { createAccount, escrowRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { createRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';

const ENV = { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' };
const PASSWORD = 'payout settings test password';
/** The hour it is now in Addis Ababa (UTC+3, no daylight saving time). */
const addisHour = () => (new Date().getUTCHours() + 3) % 24;
const DAY = 86_400_000;
const daily = (): PayoutSchedule => ({ kind: 'daily', hour: addisHour() });

/**
 * Payout settings over HTTP, the scheduled payouts they set going on the payment work's scheduler
 * (BullMQ here, so a lost Redis can be shown), and the PAYOUT_PAID and PAYOUT_FAILED callbacks.
 */
describe('payout settings and scheduled payouts', () => {
  let running: RunningApp;
  let redis: Awaited<ReturnType<typeof createRedisPrefix>>;
  let receiver: CallbackReceiver;
  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (m: TestMerchant, path: string, body?: unknown) => call(running.baseUrl, 'POST', path, { body: body ?? {}, headers: as(m) });
  const get = (m: TestMerchant, path: string) => call(running.baseUrl, 'GET', path, { headers: as(m) });
  /** In santim, from the audit API. */
  const balance = async (account: string) => {
    const res = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    return res.body.data.accounts.length ? Math.round(res.body.data.accounts[0].balance * 100) : 0;
  };
  const payable = (m: TestMerchant) => balance(`merchant:${m.merchantId}:payable`);
  const payouts = async (m: TestMerchant) => (await get(m, '/v1/trdp/payouts?limit=100')).body.data.payouts as { payoutId: string; status: string; trigger: string; amount: number }[];
  /** The merchant's payout account as the audit API reads it (a stream nothing was written to is not found). */
  const streamEvents = async (streamId: string): Promise<{ type: string; data: Record<string, unknown> }[]> => {
    const res = await call(running.baseUrl, 'GET', `/v1/audit/streams/${streamId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    return res.status === 404 ? [] : res.body.data.events;
  };
  /** The merchant's payout destination and books: every payout requested is booked there once. */
  const payoutEvents = async (m: TestMerchant) => [...(await streamEvents(streams.payoutDestination(m.merchantId))), ...(await streamEvents(streams.payoutBooks(m.merchantId)))];
  /** The settings' own stream. */
  const settingsEvents = (m: TestMerchant) => streamEvents(streams.payoutSettings(m.merchantId));
  const callbacksOf = (m: TestMerchant, status: string) =>
    receiver.received.filter((c) => JSON.parse(c.body).merchantId === m.merchantId && JSON.parse(c.body).status === status).map((c) => verifyCallback(m.webhookSecret, c.headers, c.body));

  /** An escrow paid and the merchant's own allocation of 600.50 ETB released to its payable. */
  async function releasedTo(m: TestMerchant): Promise<void> {
    const before = await payable(m);
    const allocations = [{ merchantId: m.merchantId, amount: 600.5 }, { merchantId: await createAccount(running.baseUrl, m, 'courier-1'), amount: 400 }];
    const { escrowId } = (await post(m, '/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }))).body.data;
    expect((await post(m, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(m, `/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(m, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: m.merchantId })).status).toBe(200);
    await waitFor(async () => (await payable(m)) === before + 60_050, 'the release in the payable');
  }

  const destination = (m: TestMerchant, accountNumber = '1000123456789') =>
    post(m, '/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber, holderName: 'Scheduled Merchant' });

  /**
   * The settings command as the merchant ran it a day ago, through the same decider: a schedule set
   * yesterday is in force when today's period falls due, which a schedule set now is not.
   */
  const scheduleSetYesterday = (m: TestMerchant, schedule: PayoutSchedule, minimum = 1, callbackUrl: string | null = null, on = running) =>
    on.app.get(CommandRunner).run(
      streams.payoutSettings(m.merchantId),
      payoutSettingsDecider,
      { type: 'SetPayoutSettings', data: { merchantId: m.merchantId, settings: { schedule, minimumAmount: santim(minimum), callbackUrl }, at: new Date(Date.now() - DAY).toISOString() } },
      { actor: { type: 'merchant', id: m.merchantId } },
    );
  /**
   * Another merchant, on a schedule set yesterday, paid today's period: the reconcile passes since have
   * looked at every merchant, so what one did not pay it was not going to pay.
   */
  async function anotherMerchantPaidOnSchedule(name: string): Promise<void> {
    const other = await registerMerchant(running.baseUrl, name);
    await destination(other);
    await releasedTo(other);
    await scheduleSetYesterday(other, daily());
    await waitFor(async () => (await payouts(other)).some((p) => p.trigger === 'schedule' && p.status === 'PAID'), 'the other merchant’s scheduled payout');
  }

  /** Runs a period's job as the timer or a reconcile pass would, and waits until it has run. */
  async function runPeriodJob(m: TestMerchant, period: string): Promise<string> {
    const job: PaymentJob = { kind: 'scheduled-payout', id: m.merchantId, reference: period, step: 's0', runAt: Date.now() };
    await running.app.get<Scheduler<PaymentJob>>(PAYMENT_WORK).schedule(job);
    const connection = new IORedis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue('payment-work', { connection, prefix: redis.prefix });
    try {
      return await waitFor(async () => {
        const s = await (await queue.getJob(paymentJobId(job)))?.getState();
        return (s === 'completed' || s === 'failed') && s;
      }, 'the period’s job to run');
    } finally {
      await queue.close();
      connection.disconnect();
    }
  }

  const start = (env: Record<string, string> = {}) => startApp({ env: { ...ENV, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, ...env }, schema: running?.schema });

  beforeAll(async () => {
    redis = await createRedisPrefix();
    receiver = await new CallbackReceiver().start();
    running = await start();
  });
  afterAll(async () => {
    await running?.stop();
    await running?.schema?.drop();
    await receiver?.close();
    await redis?.drop();
  });

  it('keeps the settings as versions: defaults first, a change a new version, the same settings again nothing', async () => {
    const m = await registerMerchant(running.baseUrl, 'Settings Shop');
    const initial = await get(m, '/v1/trdp/payout-settings');
    expect(initial.status).toBe(200);
    expect(initial.body.data).toEqual({
      version: 0,
      schedule: 'manual',
      hour: null,
      weekday: null,
      timeZone: 'Africa/Addis_Ababa',
      minimumAmount: 0.01,
      currency: 'ETB',
      callbackURL: null,
      payoutDelayDays: 0,
      reservePercent: 0,
      reserveDays: 0,
      nextPayoutAt: null,
      pausedByPayoutId: null,
      paused: null,
      livemode: false,
    });

    const daily = { schedule: 'daily', hour: 9, minimumAmount: 250.5, callbackURL: 'https://shop.example/payout-callbacks' };
    const set = await post(m, '/v1/trdp/payout-settings', daily);
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ version: 1, schedule: 'daily', hour: 9, weekday: null, minimumAmount: 250.5, callbackURL: daily.callbackURL });
    // 09:00 in Addis Ababa is 06:00 UTC, within the next day.
    const next = Date.parse(set.body.data.nextPayoutAt);
    expect(set.body.data.nextPayoutAt).toMatch(/T06:00:00\.000Z$/);
    expect(next).toBeGreaterThan(Date.now() - 60_000);
    expect(next).toBeLessThanOrEqual(Date.now() + 86_400_000);

    expect((await post(m, '/v1/trdp/payout-settings', daily)).body.data.version).toBe(1);
    expect((await settingsEvents(m)).map((e) => e.type)).toEqual(['PayoutSettingsChanged']);
    expect(await payoutEvents(m)).toEqual([]);

    const weekly = await post(m, '/v1/trdp/payout-settings', { schedule: 'weekly', hour: 0, weekday: 'friday' });
    // A change names what it changes: the minimum and the callback URL it does not name stay.
    expect(weekly.body.data).toMatchObject({ version: 2, schedule: 'weekly', hour: 0, weekday: 'friday', minimumAmount: 250.5, callbackURL: daily.callbackURL });
    expect(weekly.body.data.previousAttributes).toEqual({ schedule: 'daily', hour: 9, weekday: null });
    // Friday 00:00 in Addis Ababa is Thursday 21:00 UTC.
    expect(new Date(weekly.body.data.nextPayoutAt).getUTCDay()).toBe(4);
    expect(weekly.body.data.nextPayoutAt).toMatch(/T21:00:00\.000Z$/);
    const { previousAttributes, ...inForce } = weekly.body.data;
    expect(previousAttributes).toBeDefined();
    expect((await get(m, '/v1/trdp/payout-settings')).body.data).toEqual(inForce);
  });

  it('changes only the fields a change names: the hour alone keeps the holding period, null sets the default, and the answer and the event say what changed from what', async () => {
    const m = await registerMerchant(running.baseUrl, 'Partial Settings Shop');
    const first = await post(m, '/v1/trdp/payout-settings', { schedule: 'weekly', hour: 9, weekday: 'monday', minimumAmount: 100, payoutDelayDays: 7 });
    expect(first.body.data.previousAttributes).toEqual({ schedule: 'manual', hour: null, weekday: null, minimumAmount: 0.01, payoutDelayDays: 0 });

    const hourOnly = await post(m, '/v1/trdp/payout-settings', { schedule: 'daily', hour: 10 });
    expect(hourOnly.status).toBe(200);
    expect(hourOnly.body.data).toMatchObject({ version: 2, schedule: 'daily', hour: 10, weekday: null, minimumAmount: 100, payoutDelayDays: 7 });
    expect(hourOnly.body.data.previousAttributes).toEqual({ schedule: 'weekly', hour: 9, weekday: 'monday' });

    const cleared = await post(m, '/v1/trdp/payout-settings', { payoutDelayDays: null, minimumAmount: null });
    expect(cleared.body.data).toMatchObject({ version: 3, schedule: 'daily', hour: 10, minimumAmount: 0.01, payoutDelayDays: 0 });
    expect(cleared.body.data.previousAttributes).toEqual({ minimumAmount: 100, payoutDelayDays: 7 });

    const same = await post(m, '/v1/trdp/payout-settings', { hour: 10 });
    expect(same.body.data).toMatchObject({ version: 3, previousAttributes: {} });

    const events = await settingsEvents(m);
    expect(events.map((e) => e.data.previous)).toEqual([
      { schedule: { kind: 'manual' }, minimumAmount: 1, payoutDelayDays: 0 },
      { schedule: { kind: 'weekly', hour: 9, weekday: 'monday' } },
      { minimumAmount: 100_00, payoutDelayDays: 7 },
    ]);
    // The events API lists each change as PAYOUT_SETTINGS_UPDATED, with what changed from what.
    const listed = await waitFor(async () => {
      const page = (await get(m, '/v1/trdp/events?type=PAYOUT_SETTINGS_UPDATED')).body.data;
      return page.events.length === 3 ? page.events : undefined;
    }, 'three PAYOUT_SETTINGS_UPDATED events');
    const lowered = listed.map((e: { payload: Record<string, unknown> }) => e.payload).find((p: Record<string, any>) => p.version === 3);
    expect(lowered).toMatchObject({ status: 'PAYOUT_SETTINGS_UPDATED', merchantId: m.merchantId, changed: ['minimumAmount', 'payoutDelayDays'], previousAttributes: { minimumAmount: 100, payoutDelayDays: 7 }, settings: { payoutDelayDays: 0 } });
  });

  it('refuses a callback URL the webhook endpoints would refuse, when it is set, and a field no setting has', async () => {
    const m = await registerMerchant(running.baseUrl, 'Guarded Settings Shop');
    const withCredentials = await post(m, '/v1/trdp/payout-settings', { callbackURL: 'https://user:secret@shop.example/payouts' });
    expect([withCredentials.status, withCredentials.body.error.code]).toEqual([400, 'CALLBACK_URL_REFUSED']);
    const unknown = await post(m, '/v1/trdp/payout-settings', { hour: 9, payoutDelay: 7 });
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'UNKNOWN_FIELD']);
    expect(await settingsEvents(m)).toEqual([]);
  });

  it('refuses settings that do not make sense with a 400 naming the field, writing nothing', async () => {
    const m = await registerMerchant(running.baseUrl, 'Refused Settings Shop');
    for (const [body, code, mentions] of [
      [{ schedule: 'hourly' }, 'BadRequestException', 'schedule must be one of'],
      [{ schedule: 'daily' }, 'BadRequestException', 'hour is required'],
      [{ schedule: 'daily', hour: 24 }, 'BadRequestException', 'hour must not be greater than 23'],
      [{ schedule: 'daily', hour: 9.5 }, 'BadRequestException', 'hour must be an integer'],
      [{ schedule: 'weekly', hour: 9 }, 'WEEKDAY_REQUIRED', 'weekday is required for the weekly schedule'],
      [{ schedule: 'weekly', hour: 9, weekday: 'someday' }, 'BadRequestException', 'weekday must be one of'],
      [{ schedule: 'daily', hour: 9, weekday: 'friday' }, 'BadRequestException', 'weekday is only for the weekly schedule'],
      [{ schedule: 'manual', hour: 9 }, 'BadRequestException', 'hour is only for the daily and weekly schedules'],
      [{ schedule: 'manual', minimumAmount: 0 }, 'BadRequestException', 'minimumAmount must be between 0.01'],
      [{ schedule: 'manual', minimumAmount: 1.005 }, 'BadRequestException', 'minimumAmount must have at most 2 decimal places'],
      [{ schedule: 'manual', callbackURL: 'ftp://shop.example/x' }, 'BadRequestException', 'callbackURL must be a URL address'],
      [{ schedule: 'manual', minimum: 5 }, 'UNKNOWN_FIELD', 'minimum'],
      [{ schedule: 'manual', payoutDelayDays: 31 }, 'PAYOUT_DELAY_OUT_OF_RANGE', 'payoutDelayDays must be a whole number of days from 0 to 30'],
      [{ schedule: 'manual', payoutDelayDays: 2.5 }, 'BadRequestException', 'payoutDelayDays must be an integer'],
    ] as const) {
      const refused = await post(m, '/v1/trdp/payout-settings', body);
      expect({ body, status: refused.status, code: refused.body.error?.code }).toEqual({ body, status: 400, code });
      expect(refused.headers.get('content-type')).toContain('application/json');
      expect(refused.body.message).toContain(mentions);
    }
    expect(await payoutEvents(m)).toEqual([]);
    expect(await settingsEvents(m)).toEqual([]);
  });

  it('applies the minimum to a payout asked for', async () => {
    const m = await registerMerchant(running.baseUrl, 'Minimum Shop');
    await destination(m);
    await releasedTo(m);
    await post(m, '/v1/trdp/payout-settings', { schedule: 'manual', minimumAmount: 1000 });
    const refused = await post(m, '/v1/trdp/payouts');
    expect([refused.status, refused.body.error.code]).toEqual([409, 'PAYOUT_BELOW_MINIMUM']);
    expect(refused.body.message).toBe('600.50 ETB is available, below the minimum payout of 1000 ETB');
    await post(m, '/v1/trdp/payout-settings', { schedule: 'manual', minimumAmount: 600.5 });
    expect((await post(m, '/v1/trdp/payouts')).status).toBe(201);
  });

  it('pays the due period of a daily schedule once, whatever restarts, duplicate jobs or a lost Redis do, and says so by PAYOUT_PAID', async () => {
    const m = await registerMerchant(running.baseUrl, 'Scheduled Shop');
    await destination(m);
    await releasedTo(m);
    // Set yesterday at the hour it is now: today's period is due at once.
    const schedule = daily();
    await scheduleSetYesterday(m, schedule, 100_00, receiver.url);
    const period = latestDuePeriod(schedule, Date.now())!;
    const paid = await waitFor(async () => (await payouts(m)).find((p) => p.status === 'PAID'), 'the scheduled payout to be paid');
    expect(paid).toMatchObject({ payoutId: scheduledPayoutId(m.merchantId, period.key), trigger: 'schedule', amount: 600.5 });

    const [callback] = await waitFor(async () => callbacksOf(m, 'PAYOUT_PAID').length > 0 && callbacksOf(m, 'PAYOUT_PAID'), 'the PAYOUT_PAID callback');
    expect(callback).toMatchObject({
      billRefNo: paid.payoutId,
      status: 'PAYOUT_PAID',
      merchantId: m.merchantId,
      payoutId: paid.payoutId,
      amount: 600.5,
      currency: 'ETB',
      providerReference: expect.stringMatching(/^SBX-T-/),
      destination: { kind: 'bank', institution: '946', holderName: 'Scheduled Merchant', accountNumber: '••••6789' },
      deliveryId: expect.stringMatching(/^dlv_/),
    });
    expect(JSON.stringify(callback)).not.toContain('1000123456789');
    const deliveries = await waitFor(async () => {
      const listed = (await get(m, `/v1/trdp/callbacks?orderId=${paid.payoutId}`)).body.data;
      return listed.length === 1 && listed[0].status === 'DELIVERED' && listed;
    }, 'the delivery listed as delivered');
    expect(deliveries[0]).toMatchObject({ orderId: paid.payoutId, event: 'PayoutPaid' });

    // More money comes in the same period: a job of this period that paid again would pay it.
    await releasedTo(m);
    const scheduler = running.app.get<Scheduler<PaymentJob>>(PAYMENT_WORK);
    const connection = new IORedis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue('payment-work', { connection, prefix: redis.prefix });
    try {
      const duplicates: PaymentJob[] = ['s7', 's8', 's9'].map((step) => ({ kind: 'scheduled-payout', id: m.merchantId, reference: period.key, step, runAt: Date.now() }));
      for (const job of duplicates) await scheduler.schedule(job);
      await waitFor(async () => {
        const states = await Promise.all(duplicates.map(async (job) => (await queue.getJob(paymentJobId(job)))?.getState()));
        return states.every((state) => state === 'completed');
      }, 'the duplicate jobs to run');
    } finally {
      await queue.close();
      connection.disconnect();
    }

    // A restart that finds Redis empty: the start-up pass queues what the read models say is due.
    await running.stop();
    const wiper = new IORedis(redis.url);
    for (let cursor = '0', first = true; first || cursor !== '0'; first = false) {
      const [next, keys] = await wiper.scan(cursor, 'MATCH', `${redis.prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await wiper.del(...keys);
      cursor = next;
    }
    await wiper.quit();
    running = await start();

    // Another merchant's period paid after the restart: the passes since have looked at this one too.
    await anotherMerchantPaidOnSchedule('Scheduled After Restart');

    expect((await payouts(m)).filter((p) => p.trigger === 'schedule')).toHaveLength(1);
    expect(await payable(m)).toBe(60_050);
    expect((await payoutEvents(m)).filter((e) => e.type === 'PayoutBooked')).toHaveLength(1);
  });

  it('pays a period that fell due while the workers were down once they come back', async () => {
    await running.stop();
    // The API and the projector run on; the scheduled work does not.
    const api = await start({ ROLE: 'api' });
    const projector = await start({ ROLE: 'projector' });
    // The helpers speak to the process that serves the API.
    running = api;
    const m = await registerMerchant(api.baseUrl, 'Missed Period Shop');
    try {
      await destination(m);
      await releasedTo(m);
      await scheduleSetYesterday(m, daily(), 1, null, api);
    } finally {
      await api.stop();
      await projector.stop();
    }
    running = await start();
    const paid = await waitFor(async () => (await payouts(m)).find((p) => p.status === 'PAID'), 'the missed period’s payout');
    expect(paid).toMatchObject({ trigger: 'schedule', amount: 600.5 });
    expect(await payouts(m)).toHaveLength(1);
  });

  it('pays nothing and refuses nothing on a due period below the minimum', async () => {
    const m = await registerMerchant(running.baseUrl, 'Below Minimum Shop');
    await destination(m);
    await releasedTo(m);
    await scheduleSetYesterday(m, daily(), 1000_00);
    const period = latestDuePeriod(daily(), Date.now())!;
    // The period's job asked for directly (the reconcile pass passes a merchant below its minimum by).
    expect(await runPeriodJob(m, period.key)).toBe('completed');
    // Nothing to retry: a refusal would have queued the period's job again, after a wait.
    const connection = new IORedis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue('payment-work', { connection, prefix: redis.prefix });
    try {
      expect(await queue.getJob(paymentJobId({ kind: 'scheduled-payout', id: m.merchantId, reference: period.key, step: 's1', runAt: 0 }))).toBeUndefined();
    } finally {
      await queue.close();
      connection.disconnect();
    }
    expect(await payouts(m)).toEqual([]);
    expect((await payoutEvents(m)).map((e) => e.type)).toEqual(['PayoutDestinationSet']);
  });

  it('pays nothing on a due period while payouts are paused, and the period once they are resumed', async () => {
    const m = await registerMerchant(running.baseUrl, 'Paused Shop');
    await destination(m);
    await releasedTo(m);
    expect((await post(m, '/v1/trdp/payouts/pause', { reason: 'fraud review' })).status).toBe(200);
    await scheduleSetYesterday(m, daily());
    const period = latestDuePeriod(daily(), Date.now())!;
    expect(await runPeriodJob(m, period.key)).toBe('completed');
    expect(await payouts(m)).toEqual([]);
    expect((await get(m, '/v1/trdp/payout-settings')).body.data).toMatchObject({ schedule: 'daily', paused: { reason: 'fraud review' }, nextPayoutAt: null });
    expect((await settingsEvents(m)).map((e) => e.type)).toEqual(['PayoutsPaused', 'PayoutSettingsChanged']);

    expect((await post(m, '/v1/trdp/payouts/resume')).body.data.paused).toBeNull();
    // The reconcile pass finds the due period unpaid and pays it now.
    const paid = await waitFor(async () => (await payouts(m)).find((p) => p.status === 'PAID'), 'the period’s payout once resumed');
    expect(paid).toMatchObject({ trigger: 'schedule', amount: 600.5 });
  });

  it('pays no period that fell due before the schedule was set: set at this very hour, it first pays when nextPayoutAt says', async () => {
    const m = await registerMerchant(running.baseUrl, 'Set This Hour Shop');
    await destination(m);
    await releasedTo(m);
    const hour = addisHour();
    const set = await post(m, '/v1/trdp/payout-settings', { schedule: 'daily', hour });
    const today = latestDuePeriod({ kind: 'daily', hour }, Date.now())!;
    expect(set.body.data.nextPayoutAt).toBe(new Date(today.dueAt + DAY).toISOString());
    // Today's period, due before the schedule was set, asked for directly as a pass or a timer would.
    expect(await runPeriodJob(m, today.key)).toBe('completed');

    // A schedule set on today's weekday at this hour: last week's period is not its own either.
    const weekday = WEEKDAYS[(new Date(Date.now() + 3 * 3_600_000).getUTCDay() + 6) % 7];
    const weekly = await post(m, '/v1/trdp/payout-settings', { schedule: 'weekly', hour, weekday });
    const thisWeek = latestDuePeriod({ kind: 'weekly', hour, weekday }, Date.now())!;
    expect(weekly.body.data.nextPayoutAt).toBe(new Date(thisWeek.dueAt + 7 * DAY).toISOString());
    expect(await runPeriodJob(m, thisWeek.key)).toBe('completed');

    await anotherMerchantPaidOnSchedule('Set Yesterday Shop');
    expect(await payouts(m)).toEqual([]);
    expect(await payable(m)).toBe(60_050);
  });

  it('sends no scheduled payout to a destination a payout bounced from until it is set again, and still pays one asked for', async () => {
    const m = await registerMerchant(running.baseUrl, 'Bounced Schedule Shop');
    await destination(m, SANDBOX_TRANSFER_ACCOUNTS.bounces);
    await post(m, '/v1/trdp/payout-settings', { schedule: 'manual', callbackURL: receiver.url });
    await releasedTo(m);
    const bounced = (await post(m, '/v1/trdp/payouts')).body.data.payoutId;
    await waitFor(async () => callbacksOf(m, 'PAYOUT_FAILED').length === 1, 'the PAYOUT_FAILED callback');
    await waitFor(async () => (await payable(m)) === 60_050, 'the money back in the payable');

    // A daily schedule in force since yesterday: today's period is due, and the money is there.
    await scheduleSetYesterday(m, daily(), 1, receiver.url);
    const settings = (await get(m, '/v1/trdp/payout-settings')).body.data;
    expect(settings).toMatchObject({ schedule: 'daily', nextPayoutAt: null, pausedByPayoutId: bounced });
    const today = latestDuePeriod(daily(), Date.now())!;
    expect(await runPeriodJob(m, today.key)).toBe('completed');
    await anotherMerchantPaidOnSchedule('Paid Schedule Shop');
    expect((await payouts(m)).map((p) => [p.payoutId, p.trigger, p.status])).toEqual([[bounced, 'on-demand', 'FAILED']]);

    // The merchant may still ask for one.
    const asked = await post(m, '/v1/trdp/payouts');
    expect(asked.status).toBe(201);
    await waitFor(async () => callbacksOf(m, 'PAYOUT_FAILED').length === 2, 'the second PAYOUT_FAILED callback');
    await waitFor(async () => (await payable(m)) === 60_050, 'the money back in the payable again');

    // A destination set again resumes the schedule, to it.
    await destination(m);
    const scheduled = await waitFor(async () => (await payouts(m)).find((p) => p.trigger === 'schedule' && p.status === 'PAID'), 'the scheduled payout to the new destination');
    expect(scheduled).toMatchObject({ payoutId: scheduledPayoutId(m.merchantId, today.key), amount: 600.5 });
    expect((await get(m, '/v1/trdp/payout-settings')).body.data).toMatchObject({ pausedByPayoutId: null, nextPayoutAt: new Date(today.dueAt + DAY).toISOString() });
  });

  it('carries over the settings the payout account kept before they had a stream of their own, and continues their versions on the next change', async () => {
    const m = await registerMerchant(running.baseUrl, 'Settings Of Old Shop');
    await destination(m);
    // As the release before wrote them: in the payout account's stream, without scheduleSetAt.
    const yesterday = new Date(Date.now() - DAY).toISOString();
    const old = { schedule: daily(), minimumAmount: santim(100_00), callbackUrl: receiver.url };
    const store = running.app.get<EventStore>(EVENT_STORE);
    await store.append(streams.payouts(m.merchantId), [{ type: 'PayoutSettingsChanged', data: { merchantId: m.merchantId, version: 1, settings: old, changedAt: yesterday }, metadata: { actor: { type: 'merchant', id: m.merchantId } } }], 'any');
    // What the service's next start does (payout-accounts-at-start.ts), with no restart to wait for.
    expect(await carryOverPayoutAccounts(running.app.get(CommandRunner), store, new Date().toISOString())).toEqual([m.merchantId]);
    const shown = await waitFor(async () => {
      const data = (await get(m, '/v1/trdp/payout-settings')).body.data;
      return data.version === 1 && data;
    }, 'the old settings to be read');
    expect(shown).toMatchObject({ schedule: 'daily', hour: old.schedule.kind === 'daily' && old.schedule.hour, minimumAmount: 100, callbackURL: receiver.url });
    // They rule the schedule: set yesterday, today's period pays, and its callback goes to their URL.
    await releasedTo(m);
    const paid = await waitFor(async () => (await payouts(m)).find((p) => p.trigger === 'schedule' && p.status === 'PAID'), 'the scheduled payout under the old settings');
    await waitFor(async () => callbacksOf(m, 'PAYOUT_PAID').some((c) => c.payoutId === paid.payoutId), 'its PAYOUT_PAID callback');

    // A change of the minimum alone: version 2, after the carried version 1 in the settings' own stream, the schedule's instant kept.
    const changed = await post(m, '/v1/trdp/payout-settings', { schedule: 'daily', hour: shown.hour, minimumAmount: 200, callbackURL: receiver.url });
    expect(changed.body.data).toMatchObject({ version: 2, minimumAmount: 200 });
    const [carried, next] = await settingsEvents(m);
    expect(carried).toMatchObject({ type: 'PayoutSettingsCarriedOver', data: { version: 1, scheduleSetAt: yesterday } });
    expect(next).toMatchObject({ type: 'PayoutSettingsChanged', data: { version: 2, scheduleSetAt: yesterday } });
    const { previousAttributes, ...inForce } = changed.body.data;
    expect(previousAttributes).toEqual({ minimumAmount: 100 });
    expect((await get(m, '/v1/trdp/payout-settings')).body.data).toEqual(inForce);
  });

  it('tells the merchant of a failed payout by PAYOUT_FAILED, and the money is back in its payable', async () => {
    const m = await registerMerchant(running.baseUrl, 'Bounced Shop');
    await destination(m, SANDBOX_TRANSFER_ACCOUNTS.bounces);
    await post(m, '/v1/trdp/payout-settings', { schedule: 'manual', callbackURL: receiver.url });
    await releasedTo(m);
    const requested = await post(m, '/v1/trdp/payouts');
    expect(requested.status).toBe(201);
    const [callback] = await waitFor(async () => callbacksOf(m, 'PAYOUT_FAILED').length > 0 && callbacksOf(m, 'PAYOUT_FAILED'), 'the PAYOUT_FAILED callback');
    expect(callback).toMatchObject({
      status: 'PAYOUT_FAILED',
      payoutId: requested.body.data.payoutId,
      amount: 600.5,
      currency: 'ETB',
      failureReason: 'BOUNCED',
      destination: { accountNumber: '••••0002' },
    });
    expect(callback.message).toContain('back in your payable balance');
    await waitFor(async () => (await payable(m)) === 60_050, 'the money back in the payable');
    expect(await balance('test:payouts:in-transit')).toBe(0);
  });

  it('changes the settings from the dashboard through the same command, behind the session and its form token', async () => {
    const registered = await call(running.baseUrl, 'POST', '/v1/admin/merchants', {
      body: { name: 'Dashboard Settings Shop', email: `payout-settings-${Date.now()}@shop.example` },
      headers: { 'x-admin-key': TEST_ADMIN_KEY },
    });
    const m: TestMerchant = registered.body.data;
    const browser = new ConsoleClient(running.baseUrl);
    const token = invitationToken(registered.body.data.invitationUrl);
    expect((await browser.post('/dashboard/invitation', { token, password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' })).status).toBe(303);

    const page = await browser.get('/dashboard/payouts/settings');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Payouts happen only when you ask for one.');
    expect(page.text).toContain('href="/dashboard/payouts/settings"');

    const form = { schedule: 'weekly', hour: '14', weekday: 'wednesday', minimumAmount: '75.25', callbackURL: 'https://shop.example/payout-callbacks' };
    expect((await browser.post('/dashboard/payouts/settings', form)).status).toBe(403);
    const saved = await browser.post('/dashboard/payouts/settings', form, { csrfFrom: '/dashboard/payouts/settings' });
    expect([saved.status, saved.location]).toEqual([303, '/dashboard/payouts/settings?done=saved']);
    expect((await get(m, '/v1/trdp/payout-settings')).body.data).toMatchObject({ version: 1, schedule: 'weekly', hour: 14, weekday: 'wednesday', minimumAmount: 75.25, callbackURL: form.callbackURL });
    const shown = await browser.get('/dashboard/payouts/settings?done=saved');
    expect(shown.text).toContain('The payout settings were saved.');
    expect(shown.text).toContain('Every Wednesday at 14:00 Addis Ababa time.');

    const refused = await browser.post('/dashboard/payouts/settings', { ...form, minimumAmount: '1.005' }, { csrfFrom: '/dashboard/payouts/settings' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('The minimum must be a number of birr');
    // A daily schedule ignores the day the form also sends.
    const daily = await browser.post('/dashboard/payouts/settings', { ...form, schedule: 'daily' }, { csrfFrom: '/dashboard/payouts/settings' });
    expect(daily.status).toBe(303);
    expect((await get(m, '/v1/trdp/payout-settings')).body.data).toMatchObject({ version: 2, schedule: 'daily', hour: 14, weekday: null });

    // A new holding period is saved only once confirmed, with every field the form sent.
    const held = { ...form, schedule: 'daily', payoutDelayDays: '7' };
    const asked = await browser.post('/dashboard/payouts/settings', held, { csrfFrom: '/dashboard/payouts/settings' });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Change the holding period from 0 to 7 days?');
    expect(asked.text).toContain('name="confirmHolding" value="yes"');
    expect((await get(m, '/v1/trdp/payout-settings')).body.data).toMatchObject({ version: 2, payoutDelayDays: 0 });
    const confirmed = await browser.post('/dashboard/payouts/settings', { ...held, confirmHolding: 'yes' }, { csrfFrom: '/dashboard/payouts/settings' });
    expect(confirmed.status).toBe(303);
    expect((await get(m, '/v1/trdp/payout-settings')).body.data).toMatchObject({ version: 3, schedule: 'daily', hour: 14, payoutDelayDays: 7 });
    expect((await browser.get('/dashboard/payouts/settings')).text).toContain('Money released to you is held for 7 days');
    const tooLong = await browser.post('/dashboard/payouts/settings', { ...held, payoutDelayDays: '31', confirmHolding: 'yes' }, { csrfFrom: '/dashboard/payouts/settings' });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('payoutDelayDays must be a whole number of days from 0 to 30');

    // The delivery log links a payout's callback to the payout's own page.
    await destination(m);
    // The holding period the form set stays unless named: null clears it, so the money is available at once.
    await post(m, '/v1/trdp/payout-settings', { schedule: 'manual', callbackURL: receiver.url, payoutDelayDays: null });
    await releasedTo(m);
    const { payoutId } = (await post(m, '/v1/trdp/payouts')).body.data;
    await waitFor(async () => callbacksOf(m, 'PAYOUT_PAID').length > 0, 'the PAYOUT_PAID callback');
    const log = await waitFor(async () => {
      const page = await browser.get('/dashboard/webhooks');
      return page.text.includes(payoutId) && page;
    }, 'the payout callback in the delivery log');
    expect(log.text).toContain(`href="/dashboard/payouts/${payoutId}"`);
  });
});
