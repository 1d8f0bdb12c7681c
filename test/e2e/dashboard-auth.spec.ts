import type { SqlClient } from '@app/database';
import { SQL_CLIENT } from '@app/database';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { ConsoleClient, invitationToken } from '../support/console-client';
import { countWrites, escrowRequest, withSellers } from '../support/fixtures';
import { call } from '../support/http';

const PASSWORD = 'correct horse battery staple';
let emails = 0;

async function registerWithEmail(baseUrl: string, email = `owner-${Date.now()}-${++emails}@merchant.example`) {
  const res = await call(baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'Dashboard Shop', email }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
  expect(res.status).toBe(201);
  return { ...res.body.data, email } as { merchantId: string; apiSecret: string; webhookSecret: string; invitationUrl: string; email: string };
}

async function acceptInvitation(client: ConsoleClient, invitationUrl: string, password = PASSWORD) {
  return client.post('/dashboard/invitation', { token: invitationToken(invitationUrl), password, confirm: password }, { csrfFrom: '/dashboard/invitation' });
}

function setCookieLine(result: { headers: Headers }, name: string): string {
  const line = result.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
  if (!line) throw new Error(`no ${name} cookie was set`);
  return line;
}

describe('merchant dashboard sign-in', () => {
  let running: RunningApp;
  let db: SqlClient;

  beforeAll(async () => {
    running = await startApp();
    db = running.app.get(SQL_CLIENT);
  });
  afterAll(() => running?.close());

  it('registering with an e-mail returns a one-time invitation link whose token stays out of the URL path', async () => {
    const merchant = await registerWithEmail(running.baseUrl);
    expect(merchant.invitationUrl).toMatch(new RegExp(`^${running.config.publicBaseUrl}/dashboard/invitation#inv_[A-Za-z0-9_-]{43}$`));
    const without = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'No Owner' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(without.status).toBe(201);
    expect(without.body.data).not.toHaveProperty('invitationUrl');
    // The e-mail and the token are credentials: neither is in the event log.
    const [leaks] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE data::text ILIKE $1 OR data::text LIKE $2`, [
      `%${merchant.email}%`,
      `%${invitationToken(merchant.invitationUrl)}%`,
    ]);
    expect(leaks.n).toBe(0);
  });

  it('refuses a second merchant with the same owner e-mail, writing nothing', async () => {
    const merchant = await registerWithEmail(running.baseUrl);
    const before = await countWrites(db);
    const again = await call(running.baseUrl, 'POST', '/v1/admin/merchants', {
      body: { name: 'Copycat', email: merchant.email.toUpperCase() },
      headers: { 'x-admin-key': TEST_ADMIN_KEY },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('EMAIL_IN_USE');
    expect(await countWrites(db)).toEqual(before);
  });

  it('an invitation sets the password once, signs the owner in with a locked-down cookie, and cannot be used again', async () => {
    const merchant = await registerWithEmail(running.baseUrl);
    const owner = new ConsoleClient(running.baseUrl);
    const accepted = await acceptInvitation(owner, merchant.invitationUrl);
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe('/dashboard/balance');
    const cookie = setCookieLine(accepted, 'dashboard_session');
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/dashboard(;|$)/);
    expect(cookie).not.toMatch(/; Secure/);
    const orders = await owner.get('/dashboard/orders');
    expect(orders.status).toBe(200);
    expect(orders.headers.get('cache-control')).toBe('no-store');
    expect(orders.text).toContain('Orders and escrows');

    const [stored] = await db.query<{ token_hash: string }>(`SELECT token_hash FROM console_sessions WHERE subject_id = $1`, [merchant.merchantId]);
    expect(stored.token_hash).not.toBe(owner.cookie('dashboard_session'));

    const replay = await acceptInvitation(new ConsoleClient(running.baseUrl), merchant.invitationUrl, 'another long password');
    expect(replay.status).toBe(410);
    expect(replay.text).toContain('already been used');
    const signIn = await new ConsoleClient(running.baseUrl).post('/dashboard/sign-in', { email: merchant.email, password: 'another long password' }, { csrfFrom: '/dashboard/sign-in' });
    expect(signIn.status).toBe(401);
  });

  it('refuses a form without a valid CSRF token, and a token made for another session', async () => {
    const merchant = await registerWithEmail(running.baseUrl);
    await acceptInvitation(new ConsoleClient(running.baseUrl), merchant.invitationUrl);
    const client = new ConsoleClient(running.baseUrl);
    await client.get('/dashboard/sign-in');
    const missing = await client.post('/dashboard/sign-in', { email: merchant.email, password: PASSWORD });
    expect(missing.status).toBe(403);
    expect(missing.headers.get('content-type')).toContain('text/html');
    expect(missing.text).toContain('This form has expired');
    expect(client.cookie('dashboard_session')).toBeUndefined();

    const forged = await client.post('/dashboard/sign-in', { email: merchant.email, password: PASSWORD, _csrf: 'abc-def' });
    expect(forged.status).toBe(403);

    const signedIn = await client.post('/dashboard/sign-in', { email: merchant.email, password: PASSWORD }, { csrfFrom: '/dashboard/sign-in' });
    expect(signedIn.status).toBe(303);
    // A token from the signed-out sign-in page is not good inside the session.
    const other = new ConsoleClient(running.baseUrl);
    const outsider = await other.get('/dashboard/sign-in');
    client.setCookie('console_csrf', other.cookie('console_csrf')!);
    const rotate = await client.post('/dashboard/api-keys/rotate', { _csrf: /name="_csrf" value="([^"]+)"/.exec(outsider.text)![1] });
    expect(rotate.status).toBe(403);
    const stillWorks = await call(running.baseUrl, 'GET', '/v1/trdp/callbacks?orderId=x', { headers: { 'x-api-secret': merchant.apiSecret } });
    expect(stillWorks.status).toBe(200);
  });

  it('locks an e-mail after five failures for fifteen minutes, saying so whether or not the address exists', async () => {
    const merchant = await registerWithEmail(running.baseUrl);
    await acceptInvitation(new ConsoleClient(running.baseUrl), merchant.invitationUrl);
    for (const email of [merchant.email, `nobody-${Date.now()}@merchant.example`]) {
      const client = new ConsoleClient(running.baseUrl);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        statuses.push((await client.post('/dashboard/sign-in', { email, password: 'wrong password!' }, { csrfFrom: '/dashboard/sign-in' })).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      const locked = await client.post('/dashboard/sign-in', { email, password: PASSWORD }, { csrfFrom: '/dashboard/sign-in' });
      expect(locked.status).toBe(429);
      expect(locked.text).toContain('paused for 15 minutes');
      expect(client.cookie('dashboard_session')).toBeUndefined();
    }
    // Once the lock has run out (moved into the past here), the right password works again.
    await db.query(`UPDATE sign_in_failures SET locked_until = now() - interval '1 second', updated_at = now() - interval '16 minutes'`);
    const client = new ConsoleClient(running.baseUrl);
    const ok = await client.post('/dashboard/sign-in', { email: merchant.email, password: PASSWORD }, { csrfFrom: '/dashboard/sign-in' });
    expect(ok.status).toBe(303);
  });

  it('a new invitation from the admin resets a forgotten password and ends the sessions the old one opened', async () => {
    const merchant = await registerWithEmail(running.baseUrl);
    const laptop = new ConsoleClient(running.baseUrl);
    await acceptInvitation(laptop, merchant.invitationUrl);
    const reinvited = await call(running.baseUrl, 'POST', `/v1/admin/merchants/${merchant.merchantId}/invitation`, { body: {}, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(reinvited.status).toBe(201);
    expect(reinvited.body.data.invitationUrl).toMatch(/\/dashboard\/invitation#inv_/);
    // Until the new invitation is used, the old password still works.
    const before = await new ConsoleClient(running.baseUrl).post('/dashboard/sign-in', { email: merchant.email, password: PASSWORD }, { csrfFrom: '/dashboard/sign-in' });
    expect(before.status).toBe(303);

    const phone = new ConsoleClient(running.baseUrl);
    expect((await acceptInvitation(phone, reinvited.body.data.invitationUrl, 'a brand new password')).status).toBe(303);
    expect((await laptop.get('/dashboard/orders')).status).toBe(303);
    expect((await phone.get('/dashboard/orders')).status).toBe(200);
    const old = await new ConsoleClient(running.baseUrl).post('/dashboard/sign-in', { email: merchant.email, password: PASSWORD }, { csrfFrom: '/dashboard/sign-in' });
    expect(old.status).toBe(401);

    const events = await call(running.baseUrl, 'GET', `/v1/audit/streams/merchant-${merchant.merchantId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const invited = events.body.data.events.find((e: { type: string }) => e.type === 'MerchantOwnerInvited');
    expect(Object.keys(invited.data).sort()).toEqual(['invitedAt', 'merchantId']);
  });

  it('invites the owner of a merchant registered without one, and refuses what cannot be', async () => {
    const plain = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'Later Owner' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const merchantId = plain.body.data.merchantId;
    const admin = { 'x-admin-key': TEST_ADMIN_KEY };
    const before = await countWrites(db);
    const noEmail = await call(running.baseUrl, 'POST', `/v1/admin/merchants/${merchantId}/invitation`, { body: {}, headers: admin });
    expect(noEmail.status).toBe(400);
    const taken = await registerWithEmail(running.baseUrl);
    const afterTaken = await countWrites(db);
    const inUse = await call(running.baseUrl, 'POST', `/v1/admin/merchants/${merchantId}/invitation`, { body: { email: taken.email }, headers: admin });
    expect(inUse.body.error.code).toBe('EMAIL_IN_USE');
    const unknown = await call(running.baseUrl, 'POST', '/v1/admin/merchants/mer_nobody/invitation', { body: { email: 'x@shop.example' }, headers: admin });
    expect(unknown.status).toBe(404);
    expect(await countWrites(db)).toEqual(afterTaken);
    expect(afterTaken.events).toBeGreaterThan(before.events);

    const invited = await call(running.baseUrl, 'POST', `/v1/admin/merchants/${merchantId}/invitation`, { body: { email: `later-${Date.now()}@shop.example` }, headers: admin });
    expect(invited.status).toBe(201);
    const owner = new ConsoleClient(running.baseUrl);
    expect((await acceptInvitation(owner, invited.body.data.invitationUrl)).status).toBe(303);
    expect((await owner.get('/dashboard/api-keys')).text).toContain(plain.body.data.apiSecret.slice(-4));
  });

  it('signing out deletes the session: the old cookie no longer opens a page', async () => {
    const merchant = await registerWithEmail(running.baseUrl);
    const client = new ConsoleClient(running.baseUrl);
    await acceptInvitation(client, merchant.invitationUrl);
    const token = client.cookie('dashboard_session')!;
    const out = await client.post('/dashboard/sign-out', {}, { csrfFrom: '/dashboard/orders' });
    expect(out.status).toBe(303);
    expect(out.location).toBe('/dashboard/sign-in?signed-out');
    expect(client.cookie('dashboard_session')).toBeUndefined();
    const replay = new ConsoleClient(running.baseUrl);
    replay.setCookie('dashboard_session', token, '/dashboard');
    const page = await replay.get('/dashboard/orders');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/dashboard/sign-in');
  });

  it('answers pages without a session with the sign-in page, and errors as HTML', async () => {
    const anonymous = new ConsoleClient(running.baseUrl);
    for (const path of ['/dashboard/orders', '/dashboard/api-keys', '/dashboard/webhooks', '/audit/events', '/audit/ledger']) {
      const page = await anonymous.get(path);
      expect({ path, status: page.status, location: page.location }).toEqual({ path, status: 303, location: path.startsWith('/audit') ? '/audit/sign-in' : '/dashboard/sign-in' });
    }
    const merchant = await registerWithEmail(running.baseUrl);
    const client = new ConsoleClient(running.baseUrl);
    await acceptInvitation(client, merchant.invitationUrl);
    const missing = await client.get('/dashboard/escrows/esc_does_not_exist');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('text/html');
    expect(missing.text).toContain('Not found');
    // Another merchant's escrow is not found either.
    const other = await withSellers(running.baseUrl, await registerWithEmail(running.baseUrl));
    const escrow = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest(), headers: { 'x-api-secret': other.apiSecret } });
    expect((await client.get(`/dashboard/escrows/${escrow.body.data.escrowId}`)).status).toBe(404);
    // A merchant session opens nothing in the audit console.
    client.setCookie('audit_session', client.cookie('dashboard_session')!, '/audit');
    expect((await client.get('/audit/events')).status).toBe(303);
  });

  it('keeps sessions in the database: another process on the same data accepts the cookie', async () => {
    const merchant = await registerWithEmail(running.baseUrl);
    const client = new ConsoleClient(running.baseUrl);
    await acceptInvitation(client, merchant.invitationUrl);
    const second = await startApp({ schema: running.schema });
    try {
      const elsewhere = new ConsoleClient(second.baseUrl);
      elsewhere.setCookie('dashboard_session', client.cookie('dashboard_session')!, '/dashboard');
      const page = await elsewhere.get('/dashboard/api-keys');
      expect(page.status).toBe(200);
      expect(page.text).toContain(merchant.apiSecret.slice(-4));
    } finally {
      await second.stop();
    }
  });

  it.each([
    ['COOKIE_SECURE=true', { COOKIE_SECURE: 'true' }],
    ['an https PUBLIC_BASE_URL (COOKIE_SECURE=auto)', { PUBLIC_BASE_URL: 'https://pay.shop.example' }],
  ])('marks cookies Secure with %s', async (_, env) => {
    const secure = await startApp({ env });
    try {
      const merchant = await registerWithEmail(secure.baseUrl);
      const client = new ConsoleClient(secure.baseUrl);
      expect(setCookieLine(await client.get('/dashboard/invitation'), 'console_csrf')).toMatch(/; Secure/);
      const accepted = await acceptInvitation(client, merchant.invitationUrl);
      expect(setCookieLine(accepted, 'dashboard_session')).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });
});

describe('audit console sign-in', () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp();
  });
  afterAll(() => running?.close());

  it('signs in with an auditor key, exports CSV in the session, and signs out', async () => {
    const auditor = await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const client = new ConsoleClient(running.baseUrl);
    const wrong = await client.post('/audit/sign-in', { key: 'ak_wrong' }, { csrfFrom: '/audit/sign-in' });
    expect(wrong.status).toBe(401);
    const signedIn = await client.post('/audit/sign-in', { key: auditor.body.data.auditorKey }, { csrfFrom: '/audit/sign-in' });
    expect(signedIn.status).toBe(303);
    expect(setCookieLine(signedIn, 'audit_session')).toMatch(/; Path=\/audit; .*HttpOnly/);
    const csv = await client.get('/audit/events.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.text.split('\r\n')[0]).toBe('position,event_id,stream_id,revision,type,recorded_at,data,metadata,hash');
    expect(csv.text).toContain('AuditorRegistered');
    const out = await client.post('/audit/sign-out', {}, { csrfFrom: '/audit/events' });
    expect(out.status).toBe(303);
    expect((await client.get('/audit/events.csv')).status).toBe(303);
  });

  it('pauses key sign-in from an address after five wrong keys, even for a right one', async () => {
    const auditor = await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Locked' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const client = new ConsoleClient(running.baseUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await client.post('/audit/sign-in', { key: `ak_guess_${i}` }, { csrfFrom: '/audit/sign-in' })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const locked = await client.post('/audit/sign-in', { key: auditor.body.data.auditorKey }, { csrfFrom: '/audit/sign-in' });
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('paused for 15 minutes');
    await running.app.get(SQL_CLIENT).query(`DELETE FROM sign_in_failures`);
  });

  it('takes the admin key too, and no merchant password', async () => {
    const client = new ConsoleClient(running.baseUrl);
    const signedIn = await client.post('/audit/sign-in', { key: TEST_ADMIN_KEY }, { csrfFrom: '/audit/sign-in' });
    expect(signedIn.status).toBe(303);
    const page = await client.get('/audit/ledger');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Signed in with the admin key');
  });
});
