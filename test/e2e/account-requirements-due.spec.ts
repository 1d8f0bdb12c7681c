import { signCallbackBody } from '@app/callbacks';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { CallbackReceiver, type ReceivedCallback } from '../support/callback-receiver';
import { ConsoleClient, invitationToken, signedInMerchant } from '../support/console-client';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const PASSWORD = 'deadline pages password';

/**
 * A requirement past its due instant restricts the account as an event (issue 42, item 1;
 * docs/guides/marketplaces.md, requirements with a due date): its status becomes RESTRICTED, decided by
 * the payment work at the instant or by its test clock's advance, and the platform hears of it with a
 * signed ACCOUNT_UPDATED; the document (or the operator's approval) lifts it back, and says so too.
 * Both dashboards show what was asked, by when, and whether it is past due.
 */
describe('an account restricted when a requirement comes past due', () => {
  let running: RunningApp;
  let platform: { merchantId: string; apiSecret: string; browser: ConsoleClient };
  let hooks: CallbackReceiver;
  let secret: string;
  const admin = { 'x-admin-key': TEST_ADMIN_KEY };
  const as = (extra: Record<string, string> = {}) => ({ 'x-api-secret': platform.apiSecret, ...extra });
  const post = (path: string, body: unknown = {}, extra: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body, headers: as(extra) });
  const get = (path: string) => call(running.baseUrl, 'GET', path, { headers: as() });
  const staff = (path: string, body: unknown) => call(running.baseUrl, 'POST', `/v1/admin/accounts${path}`, { body, headers: admin });
  const history = async (accountId: string) =>
    (await call(running.baseUrl, 'GET', `/v1/audit/streams/account-${accountId}`, { headers: admin })).body.data.events as { type: string; data: Record<string, unknown>; metadata: Record<string, unknown> }[];
  const json = (callback: ReceivedCallback) => JSON.parse(callback.body) as Record<string, any>;
  const signed = (callback: ReceivedCallback) => signCallbackBody(secret, String(callback.headers['x-timestamp']), callback.body) === callback.headers['x-signature'];
  /** The ACCOUNT_UPDATED the platform's endpoint received for the account with this status (and message), signed with the endpoint's secret. */
  const told = async (accountId: string, accountStatus: string, message?: string) => {
    const mine = (c: ReceivedCallback) => json(c).accountId === accountId && json(c).accountStatus === accountStatus && (message === undefined || json(c).message === message);
    const callback = await waitFor(async () => hooks.received.find(mine), `ACCOUNT_UPDATED ${accountStatus} for ${accountId}`);
    expect(signed(callback)).toBe(true);
    return json(callback);
  };
  const upload = async (accountId: string, kind: string) => {
    const form = new FormData();
    form.append('kind', kind);
    form.append('file', new Blob([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])], { type: 'image/png' }), 'scan.png');
    const response = await fetch(`${running.baseUrl}/v1/trdp/accounts/${accountId}/documents`, { method: 'POST', headers: as(), body: form });
    return response.status;
  };

  beforeAll(async () => {
    running = await startApp({ env: { RECONCILE_INTERVAL_MS: '200' } });
    platform = await signedInMerchant(running.baseUrl, 'Deadline Marketplace', PASSWORD);
    hooks = await new CallbackReceiver().start();
    const endpoint = await post('/v1/trdp/webhook-endpoints', { url: hooks.url, events: ['ACCOUNT_UPDATED'] });
    expect(endpoint.status).toBe(201);
    secret = endpoint.body.data.secret;
  });
  afterAll(async () => {
    await running?.close();
    await hooks?.close();
  });

  it("restricts a verified account when its test clock passes the due instant, refuses its payouts, and lifts it with the document", async () => {
    const clock = await post('/v1/trdp/test-clocks', { frozenTime: '2030-01-01T12:00:00+03:00', name: 'Deadline' });
    expect(clock.status).toBe(201);
    const { testClockId } = clock.body.data;
    // The sandbox's test TIN verifies it at once.
    const created = await post('/v1/trdp/accounts', { name: 'Tigist Bekele', type: 'individual', tin: '0000000001', reference: 'deadline-seller', testClockId });
    expect([created.status, created.body.data.status]).toEqual([201, 'VERIFIED']);
    const { accountId } = created.body.data;
    const dueBy = '2030-01-05T09:00:00.000Z';
    // Due after now means after the account's clock's now: an instant still ahead in real time but behind the clock is refused, writing nothing.
    const behindTheClock = await staff(`/${accountId}/request-information`, { requirements: [{ kind: 'identity', dueBy: '2029-12-31T09:00:00.000Z' }] });
    expect([behindTheClock.status, behindTheClock.body.error.code]).toEqual([400, 'ACCOUNT_REQUIREMENTS_INVALID']);
    expect((await history(accountId)).map((e) => e.type)).toEqual(['AccountCreated', 'AccountVerified']);
    const asked = await staff(`/${accountId}/request-information`, { requirements: [{ kind: 'identity', dueBy }], reason: 'The ID card on file expired' });
    expect(asked.status).toBe(200);
    expect((await history(accountId)).at(-1)).toMatchObject({ type: 'AccountInformationRequested', data: { requestedAt: '2030-01-01T09:00:00.000Z' }, metadata: { testClockId } });

    // Before the instant, nothing changes; the advance past it restricts the account at that very instant.
    expect((await post(`/v1/trdp/test-clocks/${testClockId}/advance`, { frozenTime: '2030-01-05T08:59:59Z' })).status).toBe(200);
    expect((await get(`/v1/trdp/accounts/${accountId}`)).body.data).toMatchObject({ status: 'VERIFIED', requirementsDue: [{ kind: 'identity', dueBy, pastDue: false }] });
    const advanced = await post(`/v1/trdp/test-clocks/${testClockId}/advance`, { frozenTime: '2030-01-10T12:00:00+03:00' });
    expect([advanced.status, advanced.body.data.status]).toEqual([200, 'ready']);

    const reason = `identity was due by ${dueBy} and has not arrived`;
    // An answer reads `pastDue` on the account's own clock, as its restriction does; so do the list and the dashboards.
    const pastDue = [{ kind: 'identity', dueBy, pastDue: true }];
    expect((await get(`/v1/trdp/accounts/${accountId}`)).body.data).toMatchObject({ status: 'RESTRICTED', statusReason: reason, requirementsDue: pastDue });
    const listed = (await get('/v1/trdp/accounts?limit=100')).body.data.accounts.find((a: { accountId: string }) => a.accountId === accountId);
    expect(listed.requirementsDue).toEqual(pastDue);
    expect((await platform.browser.get(`/dashboard/sellers/${accountId}`)).text).toContain('(past due: payouts stopped)');
    const restricted = (await history(accountId)).at(-1)!;
    expect(restricted).toMatchObject({
      type: 'AccountRestricted',
      data: { accountId, reason, restrictedAt: dueBy, pastDue: [{ kind: 'identity', dueBy }], liftsTo: 'VERIFIED' },
      metadata: { actor: { type: 'system', id: 'scheduler' }, testClockId, businessAt: dueBy },
    });
    expect(await told(accountId, 'RESTRICTED')).toMatchObject({
      status: 'ACCOUNT_UPDATED',
      changed: ['status'],
      reference: 'deadline-seller',
      message: `Account ${accountId} was restricted, its payouts stopped, until what is past due arrives: ${reason}`,
    });
    const payout = await post('/v1/trdp/payouts', {}, { 'x-account-id': accountId });
    expect([payout.status, payout.body.error.code]).toEqual([409, 'ACCOUNT_NOT_VERIFIED']);
    expect(payout.body.error.message).toContain(`Account ${accountId} is restricted (${reason})`);

    // Advancing again restricts nothing more; the document lifts it back to VERIFIED, on the account's clock.
    expect((await post(`/v1/trdp/test-clocks/${testClockId}/advance`, { frozenTime: '2030-01-12T12:00:00+03:00' })).status).toBe(200);
    expect((await history(accountId)).filter((e) => e.type === 'AccountRestricted')).toHaveLength(1);
    expect(await upload(accountId, 'identity')).toBe(201);
    expect((await get(`/v1/trdp/accounts/${accountId}`)).body.data).toMatchObject({ status: 'VERIFIED', statusReason: 'the requirements past due were met', requirementsDue: [] });
    const [uploaded, lifted] = (await history(accountId)).slice(-2);
    expect([uploaded.type, lifted.type]).toEqual(['AccountDocumentUploaded', 'AccountRestrictionLifted']);
    expect(lifted).toMatchObject({ data: { status: 'VERIFIED', liftedAt: '2030-01-12T09:00:00.000Z' }, metadata: { testClockId, businessAt: '2030-01-12T09:00:00.000Z' } });
    expect(await told(accountId, 'VERIFIED', `Account ${accountId} is VERIFIED again: the requirements past due were met`)).toMatchObject({ changed: ['status'] });
    const afterLift = await post('/v1/trdp/payouts', {}, { 'x-account-id': accountId });
    expect(afterLift.body.error?.code).not.toBe('ACCOUNT_NOT_VERIFIED');
  });

  it('restricts an account on the real time at its instant through the payment work, and the operator’s approval lifts it', async () => {
    const created = await post('/v1/trdp/accounts', { name: 'Yonas Alemu', type: 'individual', reference: 'real-time-seller' });
    expect([created.status, created.body.data.status]).toEqual([201, 'PENDING_VERIFICATION']);
    const { accountId } = created.body.data;
    const dueBy = new Date(Date.now() + 1_500).toISOString();
    expect((await staff(`/${accountId}/request-information`, { requirements: [{ kind: 'tin_certificate', dueBy }] })).status).toBe(200);

    const restricted = await waitFor(async () => {
      const account = (await get(`/v1/trdp/accounts/${accountId}`)).body.data;
      return account.status === 'RESTRICTED' && account;
    }, 'the restriction at the due instant');
    expect(restricted).toMatchObject({ statusReason: `tin_certificate was due by ${dueBy} and has not arrived`, requirementsDue: [{ kind: 'tin_certificate', dueBy, pastDue: true }] });
    const event = (await history(accountId)).find((e) => e.type === 'AccountRestricted')!;
    expect(event.data).toMatchObject({ liftsTo: 'PENDING_VERIFICATION', pastDue: [{ kind: 'tin_certificate', dueBy }] });
    expect(Date.parse(event.data.restrictedAt as string)).toBeGreaterThanOrEqual(Date.parse(dueBy));
    expect((await told(accountId, 'RESTRICTED')).changed).toEqual(['status']);

    const approved = await staff(`/${accountId}/approve`, { reason: 'Certificate checked by phone with the revenue office' });
    expect([approved.status, approved.body.data.status, approved.body.data.requirementsDue]).toEqual([200, 'VERIFIED', []]);
    expect(await told(accountId, 'VERIFIED', `Account ${accountId} was verified: it may be paid out once nothing is missing`)).toMatchObject({ changed: ['status'] });
    expect((await history(accountId)).map((e) => e.type)).toEqual(['AccountCreated', 'AccountInformationRequested', 'AccountRestricted', 'AccountVerified']);
  });

  it("shows what was asked, by when and whether it is past due, on the platform's Sellers pages and the seller's own dashboard", async () => {
    const created = await post('/v1/trdp/accounts', { name: 'Meron Textiles', type: 'individual', tin: '0000000001', reference: 'dashboard-seller' });
    const { accountId } = created.body.data;
    const soon = new Date(Date.now() + 1_500).toISOString();
    const later = '2040-03-01T21:00:00.000Z';
    const asked = await staff(`/${accountId}/request-information`, { requirements: [{ kind: 'identity', dueBy: soon }, { kind: 'trade_licence', dueBy: later }] });
    expect(asked.status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/accounts/${accountId}`)).body.data.status === 'RESTRICTED', 'the restriction');
    const when = (iso: string) => new Date(iso).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
    const pastDue = `Identity document, due by ${when(soon)} (past due: payouts stopped)`;
    const notYet = `Trade licence, due by ${when(later)}`;

    const list = await platform.browser.get('/dashboard/sellers');
    expect(list.status).toBe(200);
    const row = list.text.slice(list.text.indexOf('Meron Textiles'));
    expect(row.slice(0, row.indexOf('</tr>'))).toContain(`${pastDue}<br>${notYet}`);
    const page = await platform.browser.get(`/dashboard/sellers/${accountId}`);
    expect(page.text).toContain(`<ul id="account-requirements-due"><li data-kind="identity">${pastDue}</li><li data-kind="trade_licence">${notYet}</li></ul>`);
    expect(page.text).toMatch(/id="account-status"><span class="status">RESTRICTED<\/span><br><span class="muted">identity was due by/);

    const issued = await platform.browser.post(`/dashboard/sellers/${accountId}/invitation`, { email: `meron-${Date.now()}@seller.example` }, { csrfFrom: `/dashboard/sellers/${accountId}` });
    const url = /id="invitation-url">([^<]+)</.exec(issued.text)![1].trim();
    const seller = new ConsoleClient(running.baseUrl);
    expect((await seller.post('/dashboard/invitation', { token: invitationToken(url), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' })).status).toBe(303);
    const own = await seller.get('/dashboard/balance');
    expect(own.text).toContain(`<ul id="account-requirements-due"><li data-kind="identity">${pastDue}</li><li data-kind="trade_licence">${notYet}</li></ul>`);

    expect(await upload(accountId, 'identity')).toBe(201);
    expect((await seller.get('/dashboard/balance')).text).toContain(`<ul id="account-requirements-due"><li data-kind="trade_licence">${notYet}</li></ul>`);
  });
});
