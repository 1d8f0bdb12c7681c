import { type RunningApp, startApp } from '../support/app';
import { ConsoleClient, invitationToken, signedInMerchant } from '../support/console-client';
import { escrowRequest } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const PASSWORD = 'overview pages password';

/** An amount as every page prints it: `1,234.50 ETB`, signed. */
const shown = (amount: number) => {
  const santim = Math.round(amount * 100);
  const whole = String(Math.trunc(Math.abs(santim) / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${santim < 0 ? '-' : ''}${whole}.${String(Math.abs(santim) % 100).padStart(2, '0')} ETB`;
};

/** The text of the element with this id, tags left out and spaces squeezed. */
const textOf = (page: string, id: string) => {
  const match = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</(dd|p|ul)>`).exec(page);
  if (!match) throw new Error(`no #${id} on the page`);
  return match[1].replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
};

/** The Addis Ababa day of an instant. */
const addisDay = (instant: string) => new Date(Date.parse(instant) + 3 * 3_600_000).toISOString().slice(0, 10);

/**
 * The dashboards' overview (issue 42, item 7): a platform and a seller open on their balance, as
 * GET /v1/trdp/balance answers it to the santim, with the last 30 days' volume and payouts as the
 * balance transactions and the payouts list add them up; pages name the party; a seller sees its payout
 * schedule, holding period, reserve and a pause by its platform; the Sellers page marks negative exactly
 * the accounts GET /v1/trdp/accounts?balance=negative lists.
 */
describe('dashboard: the balance overview', () => {
  let running: RunningApp;
  let platform: { merchantId: string; apiSecret: string; browser: ConsoleClient };
  let kept: string;
  let owing: string;
  let keptBrowser: ConsoleClient;
  let escrowId: string;
  const headers = (accountId?: string) => ({ 'x-api-secret': platform.apiSecret, ...(accountId ? { 'x-account-id': accountId } : {}) });
  const get = async (path: string, accountId?: string) => (await call(running.baseUrl, 'GET', path, { headers: headers(accountId) })).body.data;
  const post = (path: string, body: unknown, accountId?: string) => call(running.baseUrl, 'POST', path, { body, headers: headers(accountId) });

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    platform = await signedInMerchant(running.baseUrl, 'Overview Marketplace', PASSWORD);
    // A seller whose money is kept: 3 days' holding period, 10 % for 14 days in the reserve, paid weekly, paused for a review.
    kept = (await post('/v1/trdp/accounts', { name: 'Abebe Coffee PLC', type: 'business', tin: '0000000001', tradeLicenceNumber: 'AA/1/2030' })).body.data.accountId;
    owing = (await post('/v1/trdp/accounts', { name: 'Fast Courier', type: 'individual' })).body.data.accountId;
    expect((await post('/v1/trdp/payout-settings', { schedule: 'weekly', hour: 9, weekday: 'monday', payoutDelayDays: 3, reservePercent: 10, reserveDays: 14 }, kept)).status).toBe(200);
    expect((await post('/v1/trdp/payouts/pause', { reason: 'Fraud review of recent orders' }, kept)).status).toBe(200);

    const allocations = [
      { merchantId: kept, amount: 600.5, fee: 60.05 },
      { merchantId: owing, amount: 400 },
    ];
    escrowId = (await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }))).body.data.escrowId;
    await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: kept })).status).toBe(200);
    await waitFor(async () => (await get('/v1/trdp/balance', kept)).onHold > 0, "the release on hold in the seller's balance");
    // Penalties: the kept seller's 10 ETB leaves its balance above zero though more is kept than is there; the courier's 20 ETB puts it below zero.
    expect((await post('/v1/trdp/transfers', { from: kept, amount: 10, description: 'Late delivery', allowNegative: true })).status).toBe(201);
    expect((await post('/v1/trdp/transfers', { from: owing, amount: 20, description: 'Lost parcel', allowNegative: true })).status).toBe(201);
    await waitFor(async () => (await get('/v1/trdp/balance', owing)).available === -20, "the courier's penalty in its balance");
    await waitFor(async () => (await get('/v1/trdp/balance')).available === 90.05, "the platform's fee and penalties in its balance");
    // The platform pays itself out: a payout in the chart.
    expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Overview Marketplace' })).status).toBe(200);
    const payout = (await post('/v1/trdp/payouts', {})).body.data;
    await waitFor(async () => (await get(`/v1/trdp/payouts/${payout.payoutId}`)).status === 'PAID', 'the payout to be paid');

    const issued = await platform.browser.post(`/dashboard/sellers/${kept}/invitation`, { email: `abebe-${Date.now()}@seller.example` }, { csrfFrom: `/dashboard/sellers/${kept}` });
    const url = /id="invitation-url">([^<]+)</.exec(issued.text)![1].trim();
    keptBrowser = new ConsoleClient(running.baseUrl);
    expect((await keptBrowser.post('/dashboard/invitation', { token: invitationToken(url), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' })).location).toBe('/dashboard/balance');
  });
  afterAll(() => running?.close());

  /** Every figure of the overview's balance equals the API's answer for the same party. */
  function expectBalanceAsApi(page: string, balance: Record<string, unknown> & { onHoldByDay: { availableOn: string; amount: number }[]; reserveByDay: { availableOn: string; amount: number }[] }) {
    const figures = {
      available: textOf(page, 'balance-available').replace(' negative', ''),
      onHold: textOf(page, 'balance-on-hold'),
      reserve: textOf(page, 'balance-reserve'),
      pending: textOf(page, 'balance-pending'),
      frozen: textOf(page, 'balance-frozen'),
      inTransit: textOf(page, 'balance-in-transit'),
    };
    const byDay = (days: { availableOn: string; amount: number }[]) => days.map((day) => ` ${shown(day.amount)} available on ${day.availableOn}`).join('');
    expect(figures).toEqual({
      available: shown(balance.available as number),
      onHold: `${shown(balance.onHold as number)}${byDay(balance.onHoldByDay)}`,
      reserve: `${shown(balance.reserve as number)}${byDay(balance.reserveByDay)}`,
      pending: shown(balance.pending as number),
      frozen: shown(balance.frozen as number),
      inTransit: shown(balance.inTransit as number),
    });
  }

  /** The last 30 days' totals as the API's balance transactions (payment, release, fee: gross) and payouts list (neither failed nor canceled) add them up. */
  async function apiActivity(accountId?: string): Promise<{ volume: number; payouts: number; today: string }> {
    const lines = (await get('/v1/trdp/balance-transactions?limit=100', accountId)).balanceTransactions as { type: string; gross: number; createdAt: string }[];
    const payouts = (await get('/v1/trdp/payouts?limit=100', accountId)).payouts as { status: string; amount: number; requestedAt: string }[];
    const sum = (amounts: number[]) => Math.round(amounts.reduce((total, amount) => total + amount * 100, 0)) / 100;
    return {
      volume: sum(lines.filter((line) => ['payment', 'release', 'fee'].includes(line.type)).map((line) => line.gross)),
      payouts: sum(payouts.filter((p) => p.status !== 'FAILED' && p.status !== 'CANCELED').map((p) => p.amount)),
      today: addisDay(new Date().toISOString()),
    };
  }

  it("opens a seller's dashboard on its balance as the API answers it, money on hold and in the reserve by their days, its payout terms and the pause", async () => {
    const page = (await keptBrowser.get('/dashboard/balance')).text;
    const balance = await get('/v1/trdp/balance', kept);
    // 540.45 released: 10 % of it (54.04, rounded down) in the reserve for 14 days, the rest on hold for 3; the 10 ETB penalty makes available -10 without owing.
    expect(balance).toMatchObject({ available: -10, onHold: 486.41, reserve: 54.04, pending: 0 });
    expect(balance.onHoldByDay).toHaveLength(1);
    expect(balance.reserveByDay).toHaveLength(1);
    expectBalanceAsApi(page, balance);
    expect(textOf(page, 'balance-available')).not.toContain('negative');

    // Named, not by its id, in the header and the heading.
    expect(page).toContain('<span class="who">Abebe Coffee PLC</span>');
    expect(page).toContain('<h1>Abebe Coffee PLC</h1>');

    // Its payout terms as GET /v1/trdp/payout-settings says them, and the platform's pause with its reason.
    expect(textOf(page, 'payout-schedule')).toContain('Every Monday at 09:00 Addis Ababa time.');
    expect(textOf(page, 'holding-period')).toContain('held for 3 days');
    expect(textOf(page, 'reserve-terms')).toContain('Rolling reserve: 10 % of each credit (rounded down to the santim) is kept for 14 days');
    expect(textOf(page, 'payouts-paused')).toContain('Payouts are paused');
    expect(textOf(page, 'payouts-paused')).toContain('Fraud review of recent orders');
    expect(textOf(page, 'next-payout')).toBe('none scheduled');

    // The chart: an image with a title and a description, the same totals in words and in a table of the days.
    const activity = await apiActivity(kept);
    expect(activity).toMatchObject({ volume: 600.5, payouts: 0 });
    expect(page).toMatch(/<svg class="chart"[^>]*role="img"[^>]*aria-labelledby="activity-title activity-desc"/);
    expect(page).toContain('<title id="activity-title">Volume and payouts by day, last 30 days</title>');
    const summary = textOf(page, 'activity-summary');
    expect(summary).toContain(`volume ${shown(activity.volume)}, payouts ${shown(activity.payouts)}.`);
    expect(summary).toContain(`The most volume on ${activity.today}: ${shown(activity.volume)}.`);
    expect(page).toContain(`<desc id="activity-desc">${summary}</desc>`);
    expect(page).toContain(`<tr><th scope="row">${activity.today}</th><td class="num">${shown(activity.volume)}</td><td class="num">${shown(activity.payouts)}</td></tr>`);

    // The platform reads the same figures on the seller's page.
    expectBalanceAsApi((await platform.browser.get(`/dashboard/sellers/${kept}`)).text, await get('/v1/trdp/balance', kept));
  });

  it("opens the platform's dashboard on its balance, its fees and penalties as volume and its payout in the chart, named", async () => {
    const signIn = await new ConsoleClient(running.baseUrl).get('/dashboard');
    expect(signIn.location).toBe('/dashboard/sign-in');
    const page = (await platform.browser.get('/dashboard/balance')).text;
    expectBalanceAsApi(page, await get('/v1/trdp/balance'));
    expect(page).toContain('<span class="who">Overview Marketplace</span>');
    expect(page).not.toContain(`<span class="who">${platform.merchantId}`);
    expect(page).toContain('href="/dashboard/balance" aria-current="page">Overview');
    // The escrow's allocations name the sellers they pay, their ids beneath.
    const escrow = (await platform.browser.get(`/dashboard/escrows/${escrowId}`)).text;
    expect(escrow).toContain(`<td data-label="Merchant">Abebe Coffee PLC<br><span class="muted">${kept}</span></td>`);
    expect(escrow).toContain(`<td data-label="Merchant">Fast Courier<br><span class="muted">${owing}</span></td>`);

    const activity = await apiActivity();
    // Its fee of the release is volume; the penalties are transfers, not volume; the payout took 90.05.
    expect(activity).toMatchObject({ volume: 60.05, payouts: 90.05 });
    expect(textOf(page, 'activity-summary')).toContain(`volume ${shown(activity.volume)}, payouts ${shown(activity.payouts)}.`);
    expect(page).toContain(`<tr><th scope="row">${activity.today}</th><td class="num">${shown(activity.volume)}</td><td class="num">${shown(activity.payouts)}</td></tr>`);
    // Its own terms: paid only when it asks, nothing held; no pause.
    expect(textOf(page, 'payout-schedule')).toContain('Payouts happen only when you ask for one.');
    expect(page).not.toContain('id="payouts-paused"');
  });

  it('marks negative on the Sellers page exactly the sellers the API lists as negative, with the figures of GET /v1/trdp/accounts', async () => {
    const accounts = (await get('/v1/trdp/accounts?limit=100')).accounts as { accountId: string; name: string; balance: { available: number; onHold: number; reserve: number; pending: number; negative: boolean } }[];
    const negative = ((await get('/v1/trdp/accounts?balance=negative&limit=100')).accounts as { accountId: string }[]).map((account) => account.accountId);
    expect(negative).toEqual([owing]);
    const list = (await platform.browser.get('/dashboard/sellers')).text;
    const rows = Object.fromEntries(
      accounts.map((account) => {
        const row = new RegExp(`<tr>\\s*<td data-label="Seller"><a href="/dashboard/sellers/${account.accountId}">[\\s\\S]*?</tr>`).exec(list)![0];
        const cell = (label: string) => new RegExp(`data-label="${label}" class="num">([^<]*)`).exec(row)![1];
        return [
          account.name,
          { available: cell('Available'), onHold: cell('On hold'), reserve: cell('Reserve'), pending: cell('Pending'), marked: row.includes('<span class="status">negative</span>') },
        ];
      }),
    );
    expect(rows).toEqual(
      Object.fromEntries(
        accounts.map((account) => [
          account.name,
          { available: shown(account.balance.available), onHold: shown(account.balance.onHold), reserve: shown(account.balance.reserve), pending: shown(account.balance.pending), marked: account.balance.negative },
        ]),
      ),
    );
    // The kept seller's available is below zero (more is kept than is there) but it owes nothing: unmarked, as in the API.
    expect(rows['Abebe Coffee PLC']).toMatchObject({ available: '-10.00 ETB', marked: false });
    expect(rows['Fast Courier']).toMatchObject({ available: '-20.00 ETB', marked: true });
    // The courier's own page says it owes, the kept seller's does not.
    expect(textOf((await platform.browser.get(`/dashboard/sellers/${owing}`)).text, 'balance-available')).toBe('-20.00 ETB negative');
    expect(textOf((await platform.browser.get(`/dashboard/sellers/${kept}`)).text, 'balance-available')).toBe('-10.00 ETB');
  });
});
