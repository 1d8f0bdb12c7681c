import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, linkToPlatform, registerMerchant, type TestMerchant } from '../support/fixtures';
import { waitFor } from '../support/wait';
import { call } from '../support/http';
import { ConsoleClient } from '../support/console-client';

/**
 * A marketplace runs its sellers with its own key alone (issue 30, docs/guides/marketplaces.md):
 * it onboards them as accounts, which the sandbox's test TINs or the operator's staff verify.
 */
describe('accounts: a platform onboards its sellers', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  let other: TestMerchant;
  const as = (m: TestMerchant, extra: Record<string, string> = {}) => ({ 'x-api-secret': m.apiSecret, ...extra });
  const post = (m: TestMerchant, path: string, body: unknown, extra: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body, headers: as(m, extra) });
  const get = (m: TestMerchant, path: string, extra: Record<string, string> = {}) => call(running.baseUrl, 'GET', path, { headers: as(m, extra) });

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    platform = await registerMerchant(running.baseUrl, 'Merkato Marketplace');
    other = await registerMerchant(running.baseUrl, 'Another Marketplace');
  });
  afterAll(async () => {
    await running?.close();
  });

  it('creates accounts the sandbox verifies or rejects at once by their test TIN, and leaves others to review', async () => {
    const verified = await post(platform, '/v1/trdp/accounts', { name: 'Abebe Coffee PLC', type: 'business', tin: '0000000001', tradeLicenceNumber: 'AA/1/2030', reference: 'seller-verified' });
    expect(verified.status).toBe(201);
    expect(verified.body.data).toMatchObject({ reference: 'seller-verified', status: 'VERIFIED', requirements: ['payoutDestination'], statusReason: 'sandbox test TIN 0000000001' });
    expect(verified.body.data.accountId).toMatch(/^acct_[0-9a-f]{32}$/);

    const rejected = await post(platform, '/v1/trdp/accounts', { name: 'Shady Traders', type: 'individual', tin: '0000000009', reference: 'seller-rejected' });
    expect(rejected.body.data).toMatchObject({ status: 'REJECTED', requirements: ['payoutDestination'] });

    const pending = await post(platform, '/v1/trdp/accounts', { name: 'Almaz Crafts', type: 'business', reference: 'seller-pending', email: 'almaz@crafts.example', phone: '0911234567' });
    expect(pending.body.data).toMatchObject({ status: 'PENDING_VERIFICATION', requirements: ['tin', 'tradeLicenceNumber', 'payoutDestination'], phone: '+251911234567' });
  });

  it('keeps a reference to one account: the same request again finds it, another is refused', async () => {
    const body = { name: 'Unique Seller', type: 'individual', reference: 'seller-unique' };
    const first = await post(platform, '/v1/trdp/accounts', body);
    expect(first.status).toBe(201);
    const again = await post(platform, '/v1/trdp/accounts', body);
    expect(again.status).toBe(200);
    expect(again.body.data.accountId).toBe(first.body.data.accountId);
    const clash = await post(platform, '/v1/trdp/accounts', { ...body, name: 'Someone Else' });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('ACCOUNT_REFERENCE_IN_USE');
    // Another platform's references are its own.
    expect((await post(other, '/v1/trdp/accounts', body)).status).toBe(201);
  });

  it('refuses the same reference to concurrent creates but one', async () => {
    const results = await Promise.all(['A', 'B', 'C', 'D'].map((name) => post(platform, '/v1/trdp/accounts', { name: `Racer ${name}`, type: 'individual', reference: 'seller-raced' })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it('shows a platform only its own accounts, newest first, a page at a time, by status', async () => {
    const mine = (await get(platform, '/v1/trdp/accounts?limit=100')).body.data;
    expect(mine.hasMore).toBe(false);
    const names = mine.accounts.map((a: { name: string }) => a.name);
    expect(names.slice(0, 2)).toEqual(expect.arrayContaining([expect.stringMatching(/^Racer /)]));
    expect(names).toEqual(expect.arrayContaining(['Abebe Coffee PLC', 'Shady Traders', 'Almaz Crafts', 'Unique Seller']));
    expect(names.every((n: string) => n !== 'Someone Else')).toBe(true);

    const first = (await get(platform, '/v1/trdp/accounts?limit=2')).body.data;
    expect(first.hasMore).toBe(true);
    const second = (await get(platform, `/v1/trdp/accounts?limit=2&startingAfter=${first.accounts[1].accountId}`)).body.data;
    expect(second.accounts[0].accountId).toBe(mine.accounts[2].accountId);

    const onlyVerified = (await get(platform, '/v1/trdp/accounts?status=VERIFIED')).body.data.accounts;
    expect(onlyVerified.map((a: { name: string }) => a.name)).toEqual(['Abebe Coffee PLC']);
    expect((await get(platform, '/v1/trdp/accounts?status=SLEEPING')).status).toBe(400);
    expect((await get(other, `/v1/trdp/accounts?startingAfter=${first.accounts[0].accountId}`)).body.error.code).toBe('UNKNOWN_CURSOR');

    const one = first.accounts[0].accountId;
    expect((await get(platform, `/v1/trdp/accounts/${one}`)).body.data.accountId).toBe(one);
    const foreign = await get(other, `/v1/trdp/accounts/${one}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('ABC_001');
    expect((await post(other, `/v1/trdp/accounts/${one}`, { name: 'Taken Over' })).status).toBe(404);
  });

  it('updates an account; a legal detail changed on a verified one restricts it until it is verified again; the type and reference stay', async () => {
    const { accountId } = (await post(platform, '/v1/trdp/accounts', { name: 'Changing Seller', type: 'individual', tin: '0000000001', reference: 'seller-changing' })).body.data;
    const contact = await post(platform, `/v1/trdp/accounts/${accountId}`, { email: 'new@seller.example', metadata: { tier: 'gold' } });
    expect(contact.status).toBe(200);
    expect(contact.body.data).toMatchObject({ status: 'VERIFIED', email: 'new@seller.example', metadata: { tier: 'gold' } });
    const renamed = await post(platform, `/v1/trdp/accounts/${accountId}`, { name: 'Changed Seller' });
    // Restricted by the change, and verified again at once: the sandbox's rule still knows its TIN.
    expect(renamed.body.data).toMatchObject({ name: 'Changed Seller', status: 'VERIFIED' });
    const history = await call(running.baseUrl, 'GET', `/v1/audit/streams/account-${accountId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(history.body.data.events.map((e: { type: string }) => e.type)).toEqual(['AccountCreated', 'AccountVerified', 'AccountUpdated', 'AccountUpdated', 'AccountRestricted', 'AccountVerified']);
    const refused = await post(platform, `/v1/trdp/accounts/${accountId}`, { reference: 'another' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('UNKNOWN_FIELD');
  });

  it('changes only the details an update names, and says what changed from what: in the answer, the event and ACCOUNT_UPDATED', async () => {
    const { accountId } = (await post(platform, '/v1/trdp/accounts', { name: 'Partial Seller', type: 'individual', email: 'old@seller.example', reference: 'seller-partial' })).body.data;
    const updated = await post(platform, `/v1/trdp/accounts/${accountId}`, { email: 'new@seller.example', callbackURL: 'https://marketplace.example/sellers' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Partial Seller', email: 'new@seller.example', callbackURL: 'https://marketplace.example/sellers' });
    expect(updated.body.data.previousAttributes).toEqual({ email: 'old@seller.example', callbackURL: null });
    expect((await post(platform, `/v1/trdp/accounts/${accountId}`, { email: 'new@seller.example' })).body.data.previousAttributes).toEqual({});
    const history = await call(running.baseUrl, 'GET', `/v1/audit/streams/account-${accountId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const change = history.body.data.events.find((e: { type: string }) => e.type === 'AccountUpdated');
    expect(change.data.previous).toEqual({ email: 'old@seller.example', callbackUrl: null });
    const event = await waitFor(async () => {
      const page = (await get(platform, '/v1/trdp/events?type=ACCOUNT_UPDATED&limit=100')).body.data;
      return page.events.find((e: { payload: { accountId: string } }) => e.payload.accountId === accountId);
    }, 'the ACCOUNT_UPDATED event of the change');
    expect(event.payload).toMatchObject({ changed: ['email', 'callbackURL'], previousAttributes: { email: 'old@seller.example', callbackURL: null } });
  });

  it('clears a detail set to null, saying what it was; refuses to clear the name with a code of its own, writing nothing', async () => {
    const { accountId } = (
      await post(platform, '/v1/trdp/accounts', { name: 'Clearing Seller', type: 'individual', email: 'old@seller.example', phone: '0911234567', metadata: { tier: 'gold' }, reference: 'seller-clearing' })
    ).body.data;
    const cleared = await post(platform, `/v1/trdp/accounts/${accountId}`, { email: null, metadata: null, tin: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ name: 'Clearing Seller', email: null, phone: '+251911234567', metadata: null });
    // The TIN it never had changed nothing: only what it had is said to have changed.
    expect(cleared.body.data.previousAttributes).toEqual({ email: 'old@seller.example', metadata: { tier: 'gold' } });
    expect((await get(platform, `/v1/trdp/accounts/${accountId}`)).body.data).toMatchObject({ email: null, phone: '+251911234567', metadata: null });

    const stream = async () => (await call(running.baseUrl, 'GET', `/v1/audit/streams/account-${accountId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.events;
    const before = await stream();
    const unnamed = await post(platform, `/v1/trdp/accounts/${accountId}`, { name: null, phone: null });
    expect([unnamed.status, unnamed.body.error.code]).toEqual([400, 'ACCOUNT_NAME_REQUIRED']);
    expect(await stream()).toEqual(before);
  });

  it('refuses a callbackURL the webhook endpoints would refuse, and a name that shows nothing, writing nothing', async () => {
    const credentials = await post(platform, '/v1/trdp/accounts', { name: 'Guarded Seller', type: 'individual', callbackURL: 'https://user:pw@marketplace.example/s' });
    expect([credentials.status, credentials.body.error.code]).toEqual([400, 'CALLBACK_URL_REFUSED']);
    for (const name of ['\u3164', '\u2800', 'Abebe\u2028Kebede']) {
      const refused = await post(platform, '/v1/trdp/accounts', { name, type: 'individual' });
      expect([name, refused.status, refused.body.error.code]).toEqual([name, 400, 'INVALID_DISPLAY_TEXT']);
    }
  });

  it("is reviewed by the operator's staff in the audit console: approved with who decided, or rejected with a reason", async () => {
    const { accountId } = (await post(platform, '/v1/trdp/accounts', { name: 'Tigist Textiles PLC', type: 'business', reference: 'seller-review' })).body.data;
    const staff = new ConsoleClient(running.baseUrl);
    expect((await staff.post('/audit/sign-in', { key: TEST_ADMIN_KEY }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
    const queue = await staff.get('/audit/accounts');
    expect(queue.status).toBe(200);
    expect(queue.text).toContain(accountId);
    expect(queue.text).toContain('tin, tradeLicenceNumber, payoutDestination');

    // A business without its legal details cannot be approved.
    const early = await staff.post(`/audit/accounts/${accountId}/approve`, {}, { csrfFrom: `/audit/accounts/${accountId}` });
    expect(early.status).toBe(409);
    expect((await get(platform, `/v1/trdp/accounts/${accountId}`)).body.data.status).toBe('PENDING_VERIFICATION');

    await post(platform, `/v1/trdp/accounts/${accountId}`, { tin: '0012345678', tradeLicenceNumber: 'AA/14/1234/2030' });
    const approved = await staff.post(`/audit/accounts/${accountId}/approve`, { reason: 'licence checked' }, { csrfFrom: `/audit/accounts/${accountId}` });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('The account is verified.');
    const seen = (await get(platform, `/v1/trdp/accounts/${accountId}`)).body.data;
    expect(seen).toMatchObject({ status: 'VERIFIED', statusReason: 'licence checked', requirements: ['payoutDestination'] });
    const history = await call(running.baseUrl, 'GET', `/v1/audit/streams/account-${accountId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(history.body.data.events.at(-1)).toMatchObject({ type: 'AccountVerified', data: { decidedBy: { type: 'admin', id: 'admin' }, reason: 'licence checked' } });
    expect((await staff.get('/audit/accounts')).text).not.toContain(accountId);
    expect((await staff.get(`/audit/events?stream=account-${accountId}`)).text).toContain('Account verified by admin admin: licence checked');
    // The account's stream belongs to its platform in the audit log's merchant filter.
    const platformEvents = await call(running.baseUrl, 'GET', `/v1/audit/events?merchant=${platform.merchantId}&type=AccountVerified`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(platformEvents.body.data.events.map((e: { streamId: string }) => e.streamId)).toContain(`account-${accountId}`);

    // Once decided, it is not decided again; a rejection needs its reason.
    expect((await staff.post(`/audit/accounts/${accountId}/reject`, { reason: 'second thoughts' }, { csrfFrom: `/audit/accounts/${accountId}` })).status).toBe(409);
    const next = (await post(platform, '/v1/trdp/accounts', { name: 'Dawit Imports', type: 'individual', reference: 'seller-review-2' })).body.data.accountId;
    expect((await staff.post(`/audit/accounts/${next}/reject`, { reason: '' }, { csrfFrom: `/audit/accounts/${next}` })).status).toBe(400);
    expect((await staff.post(`/audit/accounts/${next}/reject`, { reason: 'identity not confirmed' }, { csrfFrom: `/audit/accounts/${next}` })).status).toBe(200);
    expect((await get(platform, `/v1/trdp/accounts/${next}`)).body.data).toMatchObject({ status: 'REJECTED', statusReason: 'identity not confirmed' });
  });

  it('lets an auditor see the queue but not decide', async () => {
    const auditorKey = (await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Review Auditor' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.auditorKey;
    const auditor = new ConsoleClient(running.baseUrl);
    expect((await auditor.post('/audit/sign-in', { key: auditorKey }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
    const { accountId } = (await post(platform, '/v1/trdp/accounts', { name: 'Hana Honey', type: 'individual', reference: 'seller-audited' })).body.data;
    const page = await auditor.get(`/audit/accounts/${accountId}`);
    expect(page.text).toContain('Only staff signed in with an admin key decide on accounts.');
    const refused = await auditor.post(`/audit/accounts/${accountId}/approve`, {}, { csrfFrom: '/audit/accounts' });
    expect(refused.status).toBe(403);
    expect((await get(platform, `/v1/trdp/accounts/${accountId}`)).body.data.status).toBe('PENDING_VERIFICATION');
  });

  describe('acting for an account with x-account-id', () => {
    let seller: string;
    const forSeller = () => ({ 'x-account-id': seller });

    beforeAll(async () => {
      seller = (await post(platform, '/v1/trdp/accounts', { name: 'Meron Spices', type: 'individual', tin: '0000000001', reference: 'seller-acted-for' })).body.data.accountId;
    });

    it("sets and reads the account's payout settings, apart from the platform's own", async () => {
      const set = await post(platform, '/v1/trdp/payout-settings', { schedule: 'weekly', hour: 9, weekday: 'friday', minimumAmount: 50 }, forSeller());
      expect(set.status).toBe(200);
      expect((await get(platform, '/v1/trdp/payout-settings', forSeller())).body.data).toMatchObject({ schedule: 'weekly', weekday: 'friday', minimumAmount: 50 });
      expect((await get(platform, '/v1/trdp/payout-settings')).body.data).toMatchObject({ schedule: 'manual' });
      // The account is named by the header only: in a body it is an unknown field, never a silent fallback.
      const inBody = await post(platform, '/v1/trdp/payout-settings', { schedule: 'manual', merchantId: seller });
      expect(inBody.status).toBe(400);
      expect(inBody.body.error.code).toBe('UNKNOWN_FIELD');
    });

    it("reads the account's statement, and sets its payout destination, whose holder the account's requirements compare with its name", async () => {
      const statement = await get(platform, '/v1/trdp/statement?from=2026-01-01T00:00:00Z&to=2031-01-01T00:00:00Z', forSeller());
      expect(statement.status).toBe(200);
      expect(statement.body.data).toMatchObject({ opening: 0, movements: [], closing: 0 });

      const someoneElse = await post(platform, '/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Someone Else Entirely' }, forSeller());
      expect(someoneElse.status).toBe(200);
      expect((await get(platform, `/v1/trdp/accounts/${seller}`)).body.data).toMatchObject({ status: 'VERIFIED', requirements: ['payoutDestination.holderName'] });
      expect((await get(platform, '/v1/trdp/payout-destination')).body.data).toBeNull();

      await post(platform, '/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'MERON SPICES' }, forSeller());
      const after = (await get(platform, `/v1/trdp/accounts/${seller}`)).body.data;
      expect(after.requirements).toEqual([]);
      // The destination replaced was never payable (another holder): correcting it holds nothing (issue 42).
      expect(after.payoutsHeldUntil).toBeNull();
      expect((await get(platform, '/v1/trdp/payout-destination', forSeller())).body.data).toMatchObject({ holderName: 'MERON SPICES' });
    });

    it("is not found for another platform's account, an unknown one or a malformed id, and refused where a route acts only for the platform", async () => {
      const theirs = (await post(other, '/v1/trdp/accounts', { name: 'Their Seller', type: 'individual' })).body.data.accountId;
      for (const id of [theirs, 'acct_00000000000000000000000000000000', 'seller-acted-for', '']) {
        const res = await get(platform, '/v1/trdp/payout-settings', { 'x-account-id': id });
        expect([res.status, res.body.error.code]).toEqual([404, 'ABC_001']);
      }
      expect((await post(other, '/v1/trdp/payout-settings', { schedule: 'manual' }, forSeller())).status).toBe(404);
      const create = await post(platform, '/v1/trdp/accounts', { name: 'Nested', type: 'individual' }, forSeller());
      expect([create.status, create.body.error.code]).toEqual([400, 'ACCOUNT_HEADER_NOT_ACCEPTED']);
    });
  });

  describe('allocations name someone who can be paid', () => {
    it('takes an account by its reference or id, the creator and a merchant linked to it; released by its reference, the money is the account’s', async () => {
      await linkToPlatform(running.baseUrl, other, platform);
      const seller = (await post(platform, '/v1/trdp/accounts', { name: 'Selam Shoes', type: 'individual', tin: '0000000001', reference: 'seller-allocated' })).body.data;
      const allocations = [
        { merchantId: 'seller-allocated', amount: 500.5, fee: 50 },
        { merchantId: other.merchantId, amount: 300 },
        { merchantId: platform.merchantId, amount: 200 },
      ];
      const created = await post(platform, '/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }));
      expect(created.status).toBe(201);
      // The answer echoes each merchantId as sent, with the id it is kept under beside it.
      const named = (data: { allocations: { merchantId: string; accountId: string }[] }) => data.allocations.map((a) => [a.merchantId, a.accountId]);
      expect(named(created.body.data)).toEqual([
        ['seller-allocated', seller.accountId],
        [other.merchantId, other.merchantId],
        [platform.merchantId, platform.merchantId],
      ]);
      const retried = await post(platform, '/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations, orderId: created.body.data.orderId }));
      expect([retried.status, named(retried.body.data)]).toEqual([200, named(created.body.data)]);
      const { escrowId } = created.body.data;
      // Every later answer names the allocation by the id it is kept under.
      expect(named((await get(platform, `/v1/trdp/escrow/${escrowId}`)).body.data)).toEqual([
        [seller.accountId, seller.accountId],
        [other.merchantId, other.merchantId],
        [platform.merchantId, platform.merchantId],
      ]);
      expect((await post(platform, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
      await waitFor(async () => (await get(platform, `/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
      // Released by the reference it was allocated by: the allocation is the account's.
      expect((await post(platform, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: 'seller-allocated' })).status).toBe(200);
      const statement = await get(platform, '/v1/trdp/statement?from=2026-01-01T00:00:00Z&to=2031-01-01T00:00:00Z', { 'x-account-id': seller.accountId });
      expect(statement.body.data.closing).toBe(450.5);
      // Acting for the account: its balance, and the escrows it has an allocation in, its share only.
      const balance = await get(platform, '/v1/trdp/balance', { 'x-account-id': seller.accountId });
      expect(balance.body.data).toMatchObject({ available: 450.5, pending: 0, frozen: 0 });
      const listed = await get(platform, '/v1/trdp/escrows', { 'x-account-id': seller.accountId });
      expect(listed.status).toBe(200);
      expect(listed.body.data.escrows.map((e: { escrowId: string }) => e.escrowId)).toEqual([escrowId]);
      expect(listed.body.data.escrows[0].allocations).toEqual([expect.objectContaining({ merchantId: seller.accountId, released: 500.5 })]);
      const platformBalance = await get(platform, '/v1/trdp/balance');
      expect(platformBalance.body.data.pending).toBeGreaterThanOrEqual(200);
    });

    it('pays an account out only once verified, with its destination in its own name and not just changed: 409 with the reason, nothing written', async () => {
      const seller = (await post(platform, '/v1/trdp/accounts', { name: 'Tsion Textiles', type: 'individual', reference: 'seller-gated' })).body.data;
      const acting = { 'x-account-id': seller.accountId };
      const allocations = [{ merchantId: 'seller-gated', amount: 600.5 }, { merchantId: platform.merchantId, amount: 400 }];
      const { escrowId } = (await post(platform, '/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }))).body.data;
      await post(platform, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
      await waitFor(async () => (await get(platform, `/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
      expect((await post(platform, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: seller.accountId })).status).toBe(200);
      expect((await post(platform, '/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Tsion Textiles' }, acting)).status).toBe(200);
      const payouts = async () => (await get(platform, '/v1/trdp/payouts?limit=100', acting)).body.data.payouts.length;

      const unverified = await post(platform, '/v1/trdp/payouts', {}, acting);
      expect([unverified.status, unverified.body.error.code]).toEqual([409, 'ACCOUNT_NOT_VERIFIED']);
      expect(await payouts()).toBe(0);

      const staff = new ConsoleClient(running.baseUrl);
      await staff.post('/audit/sign-in', { key: TEST_ADMIN_KEY }, { csrfFrom: '/audit/sign-in' });
      expect((await staff.post(`/audit/accounts/${seller.accountId}/approve`, { reason: 'documents checked' }, { csrfFrom: `/audit/accounts/${seller.accountId}` })).status).toBe(200);
      const paid = await post(platform, '/v1/trdp/payouts', {}, acting);
      expect(paid.status).toBe(201);
      expect(paid.body.data).toMatchObject({ amount: 600.5 });

      // A new destination: payouts to it wait for the hold (24 hours by default).
      await post(platform, '/v1/trdp/payout-destination', { kind: 'wallet', institution: 'telebirr', accountNumber: '0911000111', holderName: 'Tsion Textiles' }, acting);
      const released = (await post(platform, '/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }))).body.data.escrowId;
      await post(platform, `/v1/sandbox/orders/${released}/complete`, { outcome: 'PAID' });
      await waitFor(async () => (await get(platform, `/v1/trdp/escrow/${released}`)).body.data.status === 'HELD', 'the second escrow to be paid');
      expect((await post(platform, `/v1/trdp/escrow/${released}/release`, { merchantId: seller.accountId })).status).toBe(200);
      const held = await post(platform, '/v1/trdp/payouts', {}, acting);
      expect([held.status, held.body.error.code]).toEqual([409, 'PAYOUT_DESTINATION_ON_HOLD']);
      expect(await payouts()).toBe(1);
    });

    it('refuses an id that names no one the creator may pay, naming it, and writes nothing', async () => {
      const theirs = (await post(other, '/v1/trdp/accounts', { name: 'Not Yours', type: 'individual', reference: 'their-seller' })).body.data.accountId;
      // Another platform's account by its id or by its reference, unknown ids of our forms, and a free id.
      for (const stranger of [theirs, 'their-seller', 'acct_00000000000000000000000000000000', 'mer_000000000000000000000000', 'seller-404']) {
        const request = escrowRequest({ callbackURL: undefined, allocations: [{ merchantId: stranger, amount: 600.5 }, { merchantId: platform.merchantId, amount: 400 }] });
        const refused = await post(platform, '/v1/trdp/escrow/order', request);
        expect([refused.status, refused.body.error.code]).toEqual([404, 'UNKNOWN_ALLOCATION_MERCHANT']);
        expect(refused.body.error.message).toContain(stranger);
        expect((await get(platform, `/v1/trdp/callbacks?orderId=${request.orderId}`)).body.data).toEqual([]);
        expect((await post(platform, '/v1/trdp/escrow/order', { ...request, allocations: [{ merchantId: platform.merchantId, amount: 1000.5 }] })).status).toBe(201);
      }
    });
  });

  it("gives a seller's owner a one-time dashboard invitation: the log records its issue and its use, never its code", async () => {
    const accountId = (await post(platform, '/v1/trdp/accounts', { name: 'Invited Seller', type: 'individual', reference: 'seller-invited', email: `invited-${Date.now()}@seller.example` })).body.data.accountId;
    const issued = await post(platform, `/v1/trdp/accounts/${accountId}/invitation`, {}, { 'idempotency-key': `invite-${accountId}` });
    expect(issued.status).toBe(201);
    expect(issued.body.data).toEqual({ accountId, invitationUrl: expect.stringMatching(/\/dashboard\/invitation#inv_[\w-]{43}$/), livemode: false });
    const token = decodeURIComponent(issued.body.data.invitationUrl.split('#')[1]);

    // Another platform's account, an unknown one, and an account without an e-mail given none.
    expect((await post(other, `/v1/trdp/accounts/${accountId}/invitation`, {})).status).toBe(404);
    expect((await post(platform, '/v1/trdp/accounts/acct_00000000000000000000000000000000/invitation', {})).status).toBe(404);
    const anonymous = (await post(platform, '/v1/trdp/accounts', { name: 'No Mail Seller', type: 'individual' })).body.data.accountId;
    const noEmail = await post(platform, `/v1/trdp/accounts/${anonymous}/invitation`, {});
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error.code).toBe('ACCOUNT_OWNER_EMAIL_REQUIRED');
    expect((await post(platform, `/v1/trdp/accounts/${anonymous}/invitation`, { email: 'not an e-mail' })).status).toBe(400);
    expect((await post(platform, `/v1/trdp/accounts/${anonymous}/invitation`, { email: 'x@y.example', merchantId: 'm' })).body.error.code).toBe('UNKNOWN_FIELD');
    // One e-mail signs in one merchant or seller.
    const shared = `shared-${Date.now()}@seller.example`;
    expect((await post(platform, `/v1/trdp/accounts/${anonymous}/invitation`, { email: shared })).status).toBe(201);
    const taken = await post(platform, `/v1/trdp/accounts/${accountId}/invitation`, { email: shared });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('EMAIL_IN_USE');

    const browser = new ConsoleClient(running.baseUrl);
    const accepted = await browser.post('/dashboard/invitation', { token, password: 'seller password 1', confirm: 'seller password 1' }, { csrfFrom: '/dashboard/invitation' });
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe('/dashboard/balance');
    const history = await call(running.baseUrl, 'GET', `/v1/audit/streams/account-${accountId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const events = history.body.data.events as { type: string; data: Record<string, unknown> }[];
    expect(events.map((e) => e.type)).toEqual(['AccountCreated', 'AccountOwnerInvited', 'AccountOwnerInvitationUsed']);
    expect(events[1].data).toEqual({ accountId, merchantId: platform.merchantId, invitedAt: expect.any(String) });
    expect(events[2].data).toEqual({ accountId, merchantId: platform.merchantId, usedAt: expect.any(String) });
    expect(JSON.stringify(events)).not.toContain(token);
    expect(JSON.stringify(events)).not.toContain(token.slice(4));
  });

  it('answers a retried create under the same Idempotency-Key with the same account', async () => {
    const body = { name: 'Keyed Seller', type: 'individual' };
    const first = await post(platform, '/v1/trdp/accounts', body, { 'idempotency-key': 'create-keyed-seller' });
    const again = await post(platform, '/v1/trdp/accounts', body, { 'idempotency-key': 'create-keyed-seller' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data.accountId).toBe(first.body.data.accountId);
  });
});
