import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { ConsoleClient, invitationToken } from '../support/console-client';
import { escrowRequest } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const PASSWORD = 'payout forms password';
const ENV = { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' };
/** The events the forms under test append, and nothing else on this service does unasked (every schedule is manual). */
const FORM_EVENTS = ['PayoutsPaused', 'PayoutsResumed', 'PayoutRequested', 'PayoutCanceled', 'AccountClosed'];

interface Platform {
  merchantId: string;
  apiSecret: string;
  email: string;
  browser: ConsoleClient;
}

/**
 * The dashboard's forms for the payouts a platform steers and the accounts it closes (issue 42, items 2
 * and 7), over plain HTTP on a real server: on a seller's page, pause and resume its payouts with a
 * reason, pay it out all or an amount, close the account; on a payout's page, cancel it while it is
 * REQUESTED; on the Payouts page, an amount. Each is the API's command: what it moved is read back
 * through the API, a refusal is said on the page with nothing written, and another platform's session
 * finds none of these ids.
 */
describe('dashboard: the forms that steer payouts and close accounts', () => {
  let running: RunningApp;
  const headers = (p: Platform, accountId?: string) => ({ 'x-api-secret': p.apiSecret, ...(accountId ? { 'x-account-id': accountId } : {}) });
  const api = (p: Platform, method: 'GET' | 'POST', path: string, accountId?: string, body?: unknown) => call(running.baseUrl, method, path, { headers: headers(p, accountId), body });
  const available = async (p: Platform, accountId?: string): Promise<number> => (await api(p, 'GET', '/v1/trdp/balance', accountId)).body.data.available;
  const formEvents = async (): Promise<number> =>
    (await running.schema!.client.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE event_type = ANY($1)', [FORM_EVENTS]))[0].n;
  /** The page's notice, as a person reads it. */
  const noticeOf = (page: string) => /<div class="notice[^"]*" role="(?:alert|status)">([^<]*)<\/div>/.exec(page)?.[1];

  async function platformSignedIn(name: string): Promise<Platform> {
    const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@shop.example`;
    const registered = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name, email }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const browser = new ConsoleClient(running.baseUrl);
    const accepted = await browser.post('/dashboard/invitation', { token: invitationToken(registered.body.data.invitationUrl), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    expect(accepted.status).toBe(303);
    return { merchantId: registered.body.data.merchantId, apiSecret: registered.body.data.apiSecret, email, browser };
  }

  /** A seller the sandbox verifies (its test TIN), with a destination in its legal name: it may be paid out. */
  async function payableSeller(p: Platform, name: string): Promise<string> {
    const created = await api(p, 'POST', '/v1/trdp/accounts', undefined, { name, type: 'business', tin: '0000000001', tradeLicenceNumber: 'AA/1/2030' });
    const accountId: string = created.body.data.accountId;
    expect((await api(p, 'POST', '/v1/trdp/payout-destination', accountId, { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: name })).status).toBe(200);
    await waitFor(async () => {
      const account = (await api(p, 'GET', `/v1/trdp/accounts/${accountId}`)).body.data;
      return account.status === 'VERIFIED' && account.requirements.length === 0;
    }, `${name} to be payable`);
    return accountId;
  }

  /** An escrow of the platform's, paid, each allocation released. */
  async function earned(p: Platform, allocations: Array<{ merchantId: string; amount: number }>): Promise<void> {
    const amount = allocations.reduce((sum, a) => sum + a.amount, 0);
    const items = [{ productId: 'sku-1', item_name: 'Goods', quantity: 1, unit_price: amount }];
    const { escrowId } = (await api(p, 'POST', '/v1/trdp/escrow/order', undefined, escrowRequest({ amount, callbackURL: undefined, allocations, items }))).body.data;
    expect((await api(p, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, undefined, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await api(p, 'GET', `/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    for (const { merchantId } of allocations) expect((await api(p, 'POST', `/v1/trdp/escrow/${escrowId}/release`, undefined, { merchantId })).status).toBe(200);
  }

  describe('with every process', () => {
    let platform: Platform;
    let other: Platform;
    let seller: string;
    let empty: string;

    beforeAll(async () => {
      running = await startApp({ env: ENV });
      platform = await platformSignedIn('Steering Marketplace');
      other = await platformSignedIn('Other Marketplace');
      seller = await payableSeller(platform, 'Abebe Coffee PLC');
      empty = (await api(platform, 'POST', '/v1/trdp/accounts', undefined, { name: 'Quiet Seller', type: 'individual' })).body.data.accountId;
      expect((await api(platform, 'POST', '/v1/trdp/payout-destination', undefined, { kind: 'bank', institution: '946', accountNumber: '1000987654321', holderName: 'Steering Marketplace' })).status).toBe(200);
      await earned(platform, [
        { merchantId: seller, amount: 90 },
        { merchantId: platform.merchantId, amount: 110 },
      ]);
      await waitFor(async () => (await available(platform, seller)) === 90 && (await available(platform)) === 110, 'the released money to be available');
    });
    afterAll(() => running?.close());

    it("pauses a seller's payouts with a reason, shows it to the platform and the seller, refuses a payout meanwhile, and resumes them", async () => {
      const page = `/dashboard/sellers/${seller}`;
      const before = await formEvents();
      // A blank reason is the API's refusal, said on the seller's page.
      const blank = await platform.browser.post(`${page}/payouts/pause`, { reason: '   ' }, { csrfFrom: page });
      expect([blank.status, noticeOf(blank.text)]).toEqual([400, 'reason must not be blank']);
      expect(blank.text).toContain('<h1>Abebe Coffee PLC</h1>');
      expect(await formEvents()).toBe(before);

      const paused = await platform.browser.post(`${page}/payouts/pause`, { reason: 'fraud review' }, { csrfFrom: page });
      expect([paused.status, paused.location]).toEqual([303, `${page}?done=paused`]);
      expect((await api(platform, 'GET', '/v1/trdp/payout-settings', seller)).body.data.paused).toEqual({ reason: 'fraud review', pausedAt: expect.any(String) });
      const shown = await platform.browser.get(`${page}?done=paused`);
      expect(shown.text).toMatch(/id="payouts-paused"><strong>Payouts are paused<\/strong>[^]*fraud review/);
      expect(shown.text).toContain('>Resume payouts</button>');
      expect(shown.text).not.toContain('>Pause payouts</button>');

      // The seller sees the pause on its own dashboard, and has no form to lift it: the API gives an account no key to.
      const invitation = (await api(platform, 'POST', `/v1/trdp/accounts/${seller}/invitation`, undefined, { email: `abebe-${Date.now()}@seller.example` })).body.data.invitationUrl;
      const own = new ConsoleClient(running.baseUrl);
      expect((await own.post('/dashboard/invitation', { token: invitationToken(invitation), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' })).status).toBe(303);
      const home = await own.get('/dashboard/balance');
      expect(home.text).toMatch(/id="payouts-paused">[^]*fraud review/);
      expect(home.text).not.toContain('Resume payouts');
      for (const path of [`${page}/payouts/resume`, `${page}/payouts/pause`, `${page}/close`]) {
        expect({ path, status: (await own.post(path, {}, { csrfFrom: '/dashboard/balance' })).status }).toEqual({ path, status: 404 });
      }

      // Meanwhile a payout is refused in words, nothing written, nothing moved.
      const during = await formEvents();
      const refused = await platform.browser.post(`${page}/payouts`, { amount: '10' }, { csrfFrom: page });
      expect(refused.status).toBe(409);
      expect(noticeOf(refused.text)).toContain('are paused (fraud review)');
      expect(await formEvents()).toBe(during);
      expect(await available(platform, seller)).toBe(90);

      const resumed = await platform.browser.post(`${page}/payouts/resume`, {}, { csrfFrom: page });
      expect([resumed.status, resumed.location]).toEqual([303, `${page}?done=resumed`]);
      expect((await api(platform, 'GET', '/v1/trdp/payout-settings', seller)).body.data.paused).toBeNull();
      const runs = await platform.browser.get(page);
      expect(runs.text).toContain('id="payouts-running"');
      expect((await own.get('/dashboard/balance')).text).not.toContain('id="payouts-paused"');
    });

    it('pays a seller out an amount typed on its page, refusing in words what cannot be paid, with nothing written', async () => {
      const page = `/dashboard/sellers/${seller}`;
      const before = await formEvents();
      for (const [amount, status, said] of [
        ['90.01', 409, '90 ETB is available to pay out; a payout of 90.01 ETB cannot be made'],
        ['0', 400, 'The amount must be between 0.01'],
        ['ten', 400, 'The amount must be a number of birr with at most two decimals, such as 100.50'],
      ] as const) {
        const res = await platform.browser.post(`${page}/payouts`, { amount }, { csrfFrom: page });
        expect({ amount, status: res.status, said: noticeOf(res.text)?.startsWith(said) }).toEqual({ amount, status, said: true });
      }
      // A field the form does not read, naming another platform's seller or the platform itself, is refused, not ignored.
      for (const extra of <Array<Record<string, string>>>[{ accountId: empty }, { merchantId: platform.merchantId }]) {
        const res = await platform.browser.post(`${page}/payouts`, { amount: '40', ...extra }, { csrfFrom: page });
        expect({ extra, status: res.status, said: noticeOf(res.text) }).toEqual({ extra, status: 400, said: `Unknown field: ${Object.keys(extra)[0]}` });
      }
      expect(await formEvents()).toBe(before);
      expect(await available(platform, seller)).toBe(90);

      const paid = await platform.browser.post(`${page}/payouts`, { amount: '40' }, { csrfFrom: page });
      expect(paid.status).toBe(303);
      const [, payoutId] = new RegExp(`^${page}/payouts/(po_\\w+)\\?done=requested$`).exec(paid.location!)!;
      expect((await api(platform, 'GET', `/v1/trdp/payouts/${payoutId}`, seller)).body.data).toMatchObject({ amount: 40, trigger: 'on-demand' });
      expect((await platform.browser.get(paid.location!)).text).toContain('The payout was requested');
      await waitFor(async () => (await api(platform, 'GET', `/v1/trdp/payouts/${payoutId}`, seller)).body.data.status === 'PAID', 'the 40 ETB payout to be paid');
      expect(await available(platform, seller)).toBe(50);
      // Paid: no Cancel on its page, and a cancellation is refused in words.
      const payoutPage = await platform.browser.get(`${page}/payouts/${payoutId}`);
      expect(payoutPage.text).not.toContain('Cancel payout');
      const late = await platform.browser.post(`${page}/payouts/${payoutId}/cancel`, {}, { csrfFrom: page });
      expect([late.status, noticeOf(late.text)]).toEqual([409, `Payout ${payoutId} is PAID: only a payout not yet sent to the provider (REQUESTED) can be cancelled`]);
    });

    it("pays out an amount of the platform's own money from the Payouts page", async () => {
      const confirm = await platform.browser.get('/dashboard/payouts/new');
      expect(confirm.text).toContain('<label for="amount">Amount in ETB (optional)</label>');
      const refused = await platform.browser.post('/dashboard/payouts', { amount: '110.01' }, { csrfFrom: '/dashboard/payouts/new' });
      expect([refused.status, noticeOf(refused.text)]).toEqual([409, '110 ETB is available to pay out; a payout of 110.01 ETB cannot be made']);
      const paid = await platform.browser.post('/dashboard/payouts', { amount: '30.50' }, { csrfFrom: '/dashboard/payouts/new' });
      expect(paid.status).toBe(303);
      const [, payoutId] = /^\/dashboard\/payouts\/(po_\w+)\?done=requested$/.exec(paid.location!)!;
      expect((await api(platform, 'GET', `/v1/trdp/payouts/${payoutId}`)).body.data.amount).toBe(30.5);
      await waitFor(async () => (await available(platform)) === 79.5, 'the rest to stay available');
    });

    it('makes one payout of a Pay out form sent twice with the key its page was rendered with, and shows that one', async () => {
      const keyOf = (page: string) => /name="idempotencyKey" value="([^"]+)"/.exec(page)![1];
      const sellerPage = `/dashboard/sellers/${seller}`;
      for (const [label, path, from, owner, amount] of [
        ['Pay out now', '/dashboard/payouts', '/dashboard/payouts/new', undefined, 9.5],
        ["the seller's Pay out", `${sellerPage}/payouts`, sellerPage, seller, 5],
      ] as const) {
        const rendered = await platform.browser.get(from);
        const form = { amount: String(amount), idempotencyKey: keyOf(rendered.text) };
        const before = { events: await formEvents(), available: await available(platform, owner) };
        const first = await platform.browser.post(path, form, { csrfFrom: from });
        const again = await platform.browser.post(path, form, { csrfFrom: from });
        expect({ label, statuses: [first.status, again.status], same: again.location === first.location }).toEqual({ label, statuses: [303, 303], same: true });
        expect((await platform.browser.get(again.location!)).text).toContain('The payout was requested');
        expect({ label, written: (await formEvents()) - before.events }).toEqual({ label, written: 1 });
        await waitFor(async () => (await available(platform, owner)) === before.available - amount, `${label}: ${amount} ETB paid out once`);
        // Another page's form is another payout.
        expect(keyOf((await platform.browser.get(from)).text)).not.toBe(form.idempotencyKey);
      }
    });

    it('closes an account that holds nothing, and refuses with the reason one that holds money', async () => {
      const before = await formEvents();
      const holding = await platform.browser.post(`/dashboard/sellers/${seller}/close`, { reason: 'Left the marketplace', confirm: 'on' }, { csrfFrom: `/dashboard/sellers/${seller}` });
      expect(holding.status).toBe(409);
      expect(noticeOf(holding.text)).toMatch(new RegExp(`^Account ${seller} still has .*: pay its balance out or transfer it, and let its allocations settle, before closing it$`));
      const unconfirmed = await platform.browser.post(`/dashboard/sellers/${empty}/close`, { reason: 'Left the marketplace' }, { csrfFrom: `/dashboard/sellers/${empty}` });
      expect([unconfirmed.status, noticeOf(unconfirmed.text)]).toEqual([400, 'Tick the confirmation to close the account: a closed account is never opened again']);
      expect(await formEvents()).toBe(before);
      expect((await api(platform, 'GET', `/v1/trdp/accounts/${seller}`)).body.data.status).toBe('VERIFIED');

      const closed = await platform.browser.post(`/dashboard/sellers/${empty}/close`, { reason: 'Left the marketplace', confirm: 'on' }, { csrfFrom: `/dashboard/sellers/${empty}` });
      expect([closed.status, closed.location]).toEqual([303, `/dashboard/sellers/${empty}?done=closed`]);
      expect((await api(platform, 'GET', `/v1/trdp/accounts/${empty}`)).body.data).toMatchObject({ status: 'CLOSED', statusReason: 'Left the marketplace' });
      const page = await platform.browser.get(`/dashboard/sellers/${empty}?done=closed`);
      expect(page.text).toContain('id="account-closed"');
      expect(page.text).not.toContain('>Close account</button>');
      expect(page.text).not.toContain('>Pause payouts</button>');
    });

    it("finds none of these ids for another platform's session: 404, nothing written, nothing moved", async () => {
      const { payouts } = (await api(platform, 'GET', '/v1/trdp/payouts', seller)).body.data;
      const { payouts: own } = (await api(platform, 'GET', '/v1/trdp/payouts')).body.data;
      const before = { events: await formEvents(), seller: await available(platform, seller), platform: await available(platform) };
      for (const [path, form] of <Array<[string, Record<string, string>]>>[
        [`/dashboard/sellers/${seller}/payouts/pause`, { reason: 'hostile' }],
        [`/dashboard/sellers/${seller}/payouts/resume`, {}],
        [`/dashboard/sellers/${seller}/payouts`, { amount: '1' }],
        [`/dashboard/sellers/${seller}/close`, { reason: 'hostile', confirm: 'on' }],
        [`/dashboard/sellers/${seller}/payouts/${payouts[0].payoutId}/cancel`, {}],
        [`/dashboard/payouts/${own[0].payoutId}/cancel`, {}],
      ]) {
        const res = await other.browser.post(path, form, { csrfFrom: '/dashboard/sellers' });
        expect({ path, status: res.status, html: res.headers.get('content-type')?.includes('text/html') }).toEqual({ path, status: 404, html: true });
      }
      expect({ events: await formEvents(), seller: await available(platform, seller), platform: await available(platform) }).toEqual(before);
      expect((await api(platform, 'GET', '/v1/trdp/payout-settings', seller)).body.data.paused).toBeNull();
    });
  });

  describe('with no worker sending payouts until it starts', () => {
    const processes: RunningApp[] = [];
    let platform: Platform;
    let other: ConsoleClient;
    let seller: string;

    beforeAll(async () => {
      running = await startApp({ env: ENV });
      platform = await platformSignedIn('Cancelling Marketplace');
      const otherPlatform = await platformSignedIn('Other Marketplace');
      seller = await payableSeller(platform, 'Almaz Crafts');
      expect((await api(platform, 'POST', '/v1/trdp/payout-destination', undefined, { kind: 'bank', institution: '946', accountNumber: '1000987654321', holderName: 'Cancelling Marketplace' })).status).toBe(200);
      await earned(platform, [
        { merchantId: seller, amount: 60 },
        { merchantId: platform.merchantId, amount: 80 },
      ]);
      await waitFor(async () => (await available(platform, seller)) === 60 && (await available(platform)) === 80, 'the released money to be available');
      await running.stop();
      // Then the API and the projector only: a payout requested stays REQUESTED until a worker starts.
      running = await startApp({ env: { ...ENV, ROLE: 'api' }, schema: running.schema });
      processes.push(running, await startApp({ env: { ...ENV, ROLE: 'projector' }, schema: running.schema }));
      const signIn = async (email: string) => {
        const browser = new ConsoleClient(running.baseUrl);
        expect((await browser.post('/dashboard/sign-in', { email, password: PASSWORD }, { csrfFrom: '/dashboard/sign-in' })).status).toBe(303);
        return browser;
      };
      platform.browser = await signIn(platform.email);
      other = await signIn(otherPlatform.email);
    });
    afterAll(async () => {
      for (const process of processes) await process.stop();
      await running?.schema?.drop();
    });

    it("cancels the platform's payout and a seller's while REQUESTED: the money is back, read through the API; another platform's session is refused", async () => {
      for (const [owner, label] of [[undefined, 'the platform'], [seller, 'the seller']] as const) {
        const base = owner ? `/dashboard/sellers/${owner}/payouts` : '/dashboard/payouts';
        const requested = await platform.browser.post(base, { amount: '25' }, { csrfFrom: owner ? `/dashboard/sellers/${owner}` : '/dashboard/payouts/new' });
        expect({ label, status: requested.status }).toEqual({ label, status: 303 });
        const payoutId = /\/payouts\/(po_\w+)\?/.exec(requested.location!)![1];
        const before = await available(platform, owner);
        expect((await api(platform, 'GET', `/v1/trdp/payouts/${payoutId}`, owner)).body.data).toMatchObject({ status: 'REQUESTED', amount: 25 });
        const page = await platform.browser.get(`${base}/${payoutId}`);
        expect(page.text).toContain(`action="${base}/${payoutId}/cancel"`);

        const events = await formEvents();
        const hostile = await other.post(`${base}/${payoutId}/cancel`, {}, { csrfFrom: '/dashboard/payouts' });
        expect({ label, status: hostile.status }).toEqual({ label, status: 404 });
        const extra = await platform.browser.post(`${base}/${payoutId}/cancel`, { merchantId: platform.merchantId }, { csrfFrom: base });
        expect({ label, status: extra.status }).toEqual({ label, status: 400 });
        expect(await formEvents()).toBe(events);
        expect((await api(platform, 'GET', `/v1/trdp/payouts/${payoutId}`, owner)).body.data.status).toBe('REQUESTED');

        const canceled = await platform.browser.post(`${base}/${payoutId}/cancel`, {}, { csrfFrom: `${base}/${payoutId}` });
        expect([canceled.status, canceled.location]).toEqual([303, `${base}/${payoutId}?done=canceled`]);
        expect((await api(platform, 'GET', `/v1/trdp/payouts/${payoutId}`, owner)).body.data).toMatchObject({ status: 'CANCELED', canceledAt: expect.any(String) });
        await waitFor(async () => (await available(platform, owner)) === before + 25, `${label}'s 25 ETB to be available again`);
        const after = await platform.browser.get(`${base}/${payoutId}?done=canceled`);
        expect(after.text).toContain('id="payout-canceled"');
        expect(after.text).not.toContain('>Cancel payout</button>');
      }
      expect([await available(platform, seller), await available(platform)]).toEqual([60, 80]);
    });
  });
});
