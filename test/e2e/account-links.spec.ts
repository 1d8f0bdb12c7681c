import { Writable } from 'node:stream';
import { type RunningApp, startApp } from '../support/app';
import { ConsoleClient } from '../support/console-client';
import { registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';

/**
 * Issue 42, item 1: a platform's account link to the hosted onboarding page (one-time, expiring, its
 * own accounts only), the page as a browser without JavaScript uses it, and the destination rules:
 * the answer says when the holder is not the seller's legal name, and only replacing a payable
 * destination holds payouts.
 */
describe('account links and the hosted onboarding page', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  let other: TestMerchant;
  let logs = '';
  const as = (m: TestMerchant, extra: Record<string, string> = {}) => ({ 'x-api-secret': m.apiSecret, ...extra });
  const post = (m: TestMerchant, path: string, body: unknown, extra: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body, headers: as(m, extra) });
  const get = (m: TestMerchant, path: string, extra: Record<string, string> = {}) => call(running.baseUrl, 'GET', path, { headers: as(m, extra) });
  const urls = { returnUrl: 'https://marketplace.example/sellers/done', refreshUrl: 'https://marketplace.example/sellers/again' };
  const newAccount = async (body: Record<string, unknown>) => (await post(platform, '/v1/trdp/accounts', body)).body.data.accountId as string;
  const linkFor = async (accountId: string) => {
    const res = await post(platform, '/v1/trdp/account-links', { accountId, ...urls });
    expect(res.status).toBe(201);
    return res.body.data as { accountId: string; url: string; expiresAt: string };
  };
  const pathOf = (url: string) => new URL(url).pathname;
  /** A browser without JavaScript that opened the link: it is on the page. */
  const opened = async (url: string) => {
    const seller = new ConsoleClient(running.baseUrl);
    const open = await seller.get(pathOf(url));
    expect([open.status, open.location]).toEqual([303, '/onboarding']);
    return seller;
  };

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs += chunk.toString();
        done();
      },
    });
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', LOG_LEVEL: 'info' }, logDestination: sink });
    platform = await registerMerchant(running.baseUrl, 'Merkato Online');
    other = await registerMerchant(running.baseUrl, 'Another Marketplace');
  });
  afterAll(async () => {
    await running?.close();
  });

  describe('POST /v1/trdp/account-links', () => {
    it('answers a one-time URL for one of the platform’s accounts, expiring in ten minutes, whose token is in neither the log nor the logs', async () => {
      const accountId = await newAccount({ name: 'Abebe Coffee', type: 'individual' });
      const before = Date.now();
      const link = await linkFor(accountId);
      expect(link).toEqual({ accountId, url: expect.stringMatching(/\/onboarding\/acctlink_[A-Za-z0-9_-]{43}$/), expiresAt: expect.any(String), livemode: false });
      expect(link.url.startsWith(`${running.config.publicBaseUrl}/onboarding/`)).toBe(true);
      expect(Date.parse(link.expiresAt)).toBeGreaterThanOrEqual(before + 10 * 60_000 - 1_000);
      expect(Date.parse(link.expiresAt)).toBeLessThanOrEqual(Date.now() + 10 * 60_000 + 1_000);
      await opened(link.url);
      const token = pathOf(link.url).split('/').pop()!;
      expect(JSON.stringify(await running.schema!.client.query(`SELECT data, metadata FROM events`))).not.toContain(token);
      expect(JSON.stringify(await running.schema!.client.query(`SELECT * FROM account_links`))).not.toContain(token);
      expect(logs).not.toContain(token);
      expect(logs).toContain('/onboarding/[Redacted]');
    });

    it("is not found for another platform's account or an unknown one, and refuses a URL the callback rules refuse or an undeclared field, writing nothing", async () => {
      const theirs = (await post(other, '/v1/trdp/accounts', { name: 'Their Seller', type: 'individual' })).body.data.accountId;
      for (const accountId of [theirs, 'acct_00000000000000000000000000000000', platform.merchantId]) {
        const res = await post(platform, '/v1/trdp/account-links', { accountId, ...urls });
        expect([accountId, res.status, res.body.error.code]).toEqual([accountId, 404, 'ABC_001']);
      }
      const accountId = await newAccount({ name: 'Bekele Shoes', type: 'individual' });
      const count = async () => (await running.schema!.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM account_links`))[0].n;
      const links = await count();
      const withCredentials = await post(platform, '/v1/trdp/account-links', { accountId, ...urls, returnUrl: 'https://user:pw@marketplace.example/done' });
      expect([withCredentials.status, withCredentials.body.error.code]).toEqual([400, 'ACCOUNT_LINK_URL_REFUSED']);
      expect(withCredentials.body.error.message).toMatch(/^returnUrl is refused: it carries credentials/);
      const notAUrl = await post(platform, '/v1/trdp/account-links', { accountId, ...urls, refreshUrl: 'ftp://marketplace.example/again' });
      expect(notAUrl.status).toBe(400);
      const undeclared = await post(platform, '/v1/trdp/account-links', { accountId, ...urls, type: 'account_onboarding' });
      expect([undeclared.status, undeclared.body.error.code]).toEqual([400, 'UNKNOWN_FIELD']);
      const missing = await post(platform, '/v1/trdp/account-links', { accountId, returnUrl: urls.returnUrl });
      expect(missing.status).toBe(400);
      expect(await count()).toBe(links);
    });
  });

  describe('the hosted page, as a browser without JavaScript uses it', () => {
    it("takes the seller's legal details and destination as the API's events, and returns to the platform's returnUrl; the link then opens nothing", async () => {
      const accountId = await newAccount({ name: 'Almaz Crafts', type: 'business', reference: 'almaz' });
      const link = await linkFor(accountId);
      const seller = await opened(link.url);
      const page = await seller.get('/onboarding');
      expect(page.status).toBe(200);
      expect(page.text).toContain('value="Almaz Crafts"');
      const done = await seller.post(
        '/onboarding',
        { name: 'Almaz Crafts PLC', tin: '0012345678', tradeLicenceNumber: 'AA/14/1234/2030', email: 'almaz@crafts.example', phone: '0911234567', kind: 'bank', institution: '946', accountNumber: '1000 1234 5678', holderName: 'ALMAZ CRAFTS PLC' },
        { csrfFrom: '/onboarding' },
      );
      expect([done.status, done.location]).toEqual([303, urls.returnUrl]);
      const account = (await get(platform, `/v1/trdp/accounts/${accountId}`)).body.data;
      expect(account).toMatchObject({ name: 'Almaz Crafts PLC', tin: '0012345678', tradeLicenceNumber: 'AA/14/1234/2030', email: 'almaz@crafts.example', phone: '+251911234567', requirements: [], payoutsHeldUntil: null });
      const destination = (await get(platform, '/v1/trdp/payout-destination', { 'x-account-id': accountId })).body.data;
      expect(destination).toMatchObject({ kind: 'bank', institution: '946', holderName: 'ALMAZ CRAFTS PLC', accountNumber: '••••5678', version: 1, holderNameMatches: true, warning: null, payoutsHeldUntil: null });
      // The seller acted as its own account: the events name it.
      const events = await running.schema!.client.query<{ type: string; metadata: { actor?: { id: string } } }>(
        `SELECT event_type AS type, metadata FROM events WHERE stream_id IN ($1, $2) AND event_type IN ('AccountUpdated', 'PayoutDestinationSet') ORDER BY global_position`,
        [
        `account-${accountId}`,
          `payout-destination-${accountId}`,
        ],
      );
      expect(events.map((e) => [e.type, e.metadata.actor?.id])).toEqual([
        ['AccountUpdated', accountId],
        ['PayoutDestinationSet', accountId],
      ]);
      // Used: the link, and the page the seller completed, send it to the platform's refreshUrl.
      for (const again of [await new ConsoleClient(running.baseUrl).get(pathOf(link.url)), await seller.get('/onboarding')]) {
        expect(again.status).toBe(410);
        expect(again.text).toContain(`href="${urls.refreshUrl}"`);
      }
    });

    it('names each refused field in a summary linked to it, keeps what was typed but the number, and writes nothing', async () => {
      const accountId = await newAccount({ name: 'Hana Honey', type: 'individual' });
      const seller = await opened((await linkFor(accountId)).url);
      const before = await running.schema!.client.query(`SELECT count(*)::int AS n FROM events WHERE stream_id IN ($1, $2)`, [`account-${accountId}`, `payout-destination-${accountId}`]);
      const refused = await seller.post('/onboarding', { name: 'Hana Honey', tin: '12345', kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: '' }, { csrfFrom: '/onboarding' });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('<a href="#tin">TIN must be 10 digits</a>');
      expect(refused.text).toContain('<a href="#holderName">Enter the name on the account</a>');
      expect(refused.text).toMatch(/<input id="tin" name="tin" [^>]*aria-describedby="tin-hint tin-error" aria-invalid="true" value="12345">/);
      expect(refused.text).not.toContain('1000123456789');
      const undeclared = await seller.post('/onboarding', { name: 'Hana Honey', accountId: 'acct_00000000000000000000000000000000' }, { csrfFrom: '/onboarding' });
      expect(undeclared.status).toBe(400);
      expect(await running.schema!.client.query(`SELECT count(*)::int AS n FROM events WHERE stream_id IN ($1, $2)`, [`account-${accountId}`, `payout-destination-${accountId}`])).toEqual(before);
      // A form without the page's token is refused before anything.
      expect((await seller.post('/onboarding', { name: 'Hana Honey' })).status).toBe(403);
    });

    it('takes a document as the account itself, and answers a file past the upload limit on the page, in its summary, keeping nothing', async () => {
      const accountId = await newAccount({ name: 'Meskel Leather', type: 'business' });
      const seller = await opened((await linkFor(accountId)).url);
      const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('identity card '.repeat(40))]);
      const documentForm = (bytes: Buffer) => {
        const form = new FormData();
        form.append('_csrf', '');
        form.append('documentKind', 'identity');
        form.append('documentFile', new Blob([bytes], { type: 'application/pdf' }), 'identity.pdf');
        return form;
      };
      const kept = async () => ({
        events: (await running.schema!.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1`, [`account-${accountId}`]))[0].n,
        documents: (await running.schema!.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM account_documents WHERE account_id = $1`, [accountId]))[0].n,
      });
      const before = await kept();
      // Past the 10 MiB the page's uploads read (kit/web-plugins.ts), with the form token after the file as a browser may send it.
      const huge = documentForm(Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]));
      huge.delete('_csrf');
      const refused = await seller.upload('/onboarding/documents', huge, { csrfFrom: '/onboarding' });
      expect(refused.status).toBe(413);
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
      expect(refused.text).toContain('<a href="#documentFile">Choose a file of at most 5 MB: this one is larger</a>');
      expect(refused.text).toContain('<option value="identity" selected>');
      expect(await kept()).toEqual(before);
      // Between the document's 5 MiB and the upload's 10: the same answer.
      const large = await seller.upload('/onboarding/documents', documentForm(Buffer.concat([PDF, Buffer.alloc(6 * 1024 * 1024)])), { csrfFrom: '/onboarding' });
      expect(large.status).toBe(413);
      expect(large.text).toContain('<a href="#documentFile">Choose a file of at most 5 MB: this one is larger</a>');
      expect(await kept()).toEqual(before);

      const taken = await seller.upload('/onboarding/documents', documentForm(PDF), { csrfFrom: '/onboarding' });
      expect([taken.status, taken.location]).toEqual([303, '/onboarding#documents']);
      // The seller uploaded it, as its own account: the event says so, and its actor too.
      const [uploaded] = await running.schema!.client.query<{ data: { uploadedBy: unknown }; metadata: { actor: unknown } }>(
        `SELECT data, metadata FROM events WHERE stream_id = $1 AND event_type = 'AccountDocumentUploaded'`,
        [`account-${accountId}`],
      );
      expect(uploaded.data.uploadedBy).toEqual({ type: 'merchant', id: accountId });
      expect(uploaded.metadata.actor).toEqual({ type: 'merchant', id: accountId });
      // The platform's list of the account's documents names the seller as who uploaded it.
      const listed = await get(platform, `/v1/trdp/accounts/${accountId}/documents`);
      expect(listed.body.data.documents).toEqual([expect.objectContaining({ kind: 'identity', uploadedBy: { type: 'merchant', id: accountId } })]);
    });

    it('sends the seller of an expired link, or one with no link at all, to where it can get one', async () => {
      const accountId = await newAccount({ name: 'Selam Shoes', type: 'individual' });
      const link = await linkFor(accountId);
      // Ten minutes pass: the link's expiry is moved into the past rather than waited for.
      await running.schema!.client.query(`UPDATE account_links SET expires_at = now() - interval '1 second' WHERE account_id = $1`, [accountId]);
      const expired = await new ConsoleClient(running.baseUrl).get(pathOf(link.url));
      expect(expired.status).toBe(410);
      expect(expired.text).toContain(`href="${urls.refreshUrl}"`);
      expect((await new ConsoleClient(running.baseUrl).get('/onboarding/acctlink_unknown')).status).toBe(404);
      expect((await new ConsoleClient(running.baseUrl).get('/onboarding')).status).toBe(404);
    });
  });

  describe('destination rules, through the API', () => {
    const destination = { kind: 'bank', institution: '946', accountNumber: '1000123456789' };

    it("says when the holder is not the seller's legal name (case and spacing aside), and nothing for a merchant of its own", async () => {
      const accountId = await newAccount({ name: 'Meron Spices', type: 'individual', tin: '0000000001' });
      const acting = { 'x-account-id': accountId };
      const wrong = await post(platform, '/v1/trdp/payout-destination', { ...destination, holderName: 'Meron Spcies' }, acting);
      expect(wrong.status).toBe(200);
      expect(wrong.body.data).toMatchObject({ holderName: 'Meron Spcies', holderNameMatches: false, warning: expect.stringContaining('is not the account\'s legal name "Meron Spices"') });
      const same = await post(platform, '/v1/trdp/payout-destination', { ...destination, holderName: '  meron   SPICES ' }, acting);
      expect(same.body.data).toMatchObject({ holderName: 'meron   SPICES', holderNameMatches: true, warning: null });
      const own = await post(platform, '/v1/trdp/payout-destination', { ...destination, holderName: 'Anyone At All' });
      expect(own.body.data).toMatchObject({ holderNameMatches: null, warning: null, payoutsHeldUntil: null });
    });

    it('holds payouts only when a payable destination is replaced: not for a first one, nor for correcting one that was never payable', async () => {
      const accountId = await newAccount({ name: 'Tsion Textiles', type: 'individual', tin: '0000000001' });
      const acting = { 'x-account-id': accountId };
      const setTo = async (body: Record<string, unknown>) => (await post(platform, '/v1/trdp/payout-destination', { ...destination, ...body }, acting)).body.data;
      const account = async () => (await get(platform, `/v1/trdp/accounts/${accountId}`)).body.data;

      expect(await setTo({ holderName: 'Tsion Textles' })).toMatchObject({ version: 1, holderNameMatches: false, payoutsHeldUntil: null });
      // The typo corrected: the first destination could never be paid to, so nothing is held.
      expect(await setTo({ holderName: 'Tsion Textiles' })).toMatchObject({ version: 2, holderNameMatches: true, payoutsHeldUntil: null });
      expect(await account()).toMatchObject({ status: 'VERIFIED', requirements: [], payoutsHeldUntil: null });

      // A payable destination replaced: 24 hours' hold (PAYOUT_HOLD_AFTER_DESTINATION_CHANGE_HOURS).
      const changed = await setTo({ kind: 'wallet', institution: 'telebirr', accountNumber: '0911000111', holderName: 'Tsion Textiles' });
      expect(changed).toMatchObject({ version: 3, payoutsHeldUntil: expect.any(String) });
      expect(Date.parse(changed.payoutsHeldUntil)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
      expect((await account()).payoutsHeldUntil).toBe(changed.payoutsHeldUntil);
      const refused = await post(platform, '/v1/trdp/payouts', {}, acting);
      expect([refused.status, refused.body.error.code]).toEqual([409, 'PAYOUT_DESTINATION_ON_HOLD']);
      // Changed again while held: still held, from the new change.
      const again = await setTo({ holderName: 'Tsion Textiles', accountNumber: '2000123456789' });
      expect(Date.parse(again.payoutsHeldUntil)).toBeGreaterThanOrEqual(Date.parse(changed.payoutsHeldUntil));
    });
  });
});
