import { createHash } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { RegisterStaffMemberCommand, RevokeStaffKeyCommand } from '@app/onboarding';
import { PayoutBooksDeps, requestPayout } from '@app/payments';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { ConsoleClient } from '../support/console-client';
import { waitFor } from '../support/wait';

/**
 * KYC by API (issue 42, item 1): the operator's staff review a platform's seller with the admin key
 * (approve, reject, ask for documents by a due instant), each decision an event naming who took it;
 * the platform uploads the seller's documents, kept encrypted, shown only to it and the operator; a
 * requirement past due restricts the account's payouts until its document arrives.
 */
describe('KYC by API: staff review, documents, requirements with a due date', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  let other: TestMerchant;
  const admin = { 'x-admin-key': TEST_ADMIN_KEY };
  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const staff = (path: string, body: unknown) => call(running.baseUrl, 'POST', `/v1/admin/accounts${path}`, { body, headers: admin });
  const history = async (accountId: string) => (await call(running.baseUrl, 'GET', `/v1/audit/streams/account-${accountId}`, { headers: admin })).body.data.events as { type: string; data: Record<string, unknown> }[];
  const newAccount = async (name: string, extra: Record<string, unknown> = {}) => {
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name, type: 'business', tin: '0012345678', tradeLicenceNumber: 'AA/1/2030', ...extra }, headers: as(platform) });
    expect(created.status).toBe(201);
    return created.body.data.accountId as string;
  };

  const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('trade licence of Abebe Coffee PLC, AA/1/2030 '.repeat(40))]);
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

  /** A multipart upload as a platform's server sends one: a kind field and a file part. */
  const upload = async (m: TestMerchant, accountId: string, parts: { kind?: string; file?: Buffer; type?: string; extra?: Record<string, string> }) => {
    const form = new FormData();
    if (parts.kind !== undefined) form.append('kind', parts.kind);
    for (const [name, value] of Object.entries(parts.extra ?? {})) form.append(name, value);
    if (parts.file) form.append('file', new Blob([parts.file], { type: parts.type ?? 'application/pdf' }), 'document');
    const response = await fetch(`${running.baseUrl}/v1/trdp/accounts/${accountId}/documents`, { method: 'POST', headers: as(m), body: form });
    return { status: response.status, body: (await response.json()) as any };
  };
  const download = async (path: string, headers: Record<string, string>) => {
    const response = await fetch(`${running.baseUrl}${path}`, { headers });
    return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
  };

  beforeAll(async () => {
    running = await startApp();
    platform = await registerMerchant(running.baseUrl, 'KYC Marketplace');
    other = await registerMerchant(running.baseUrl, 'Another Marketplace');
  });
  afterAll(async () => {
    await running?.close();
  });

  it('lets staff approve, reject and ask through the API, each decision an event naming who decided, the platform told', async () => {
    const accountId = await newAccount('Abebe Coffee PLC');
    const dueBy = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const asked = await staff(`/${accountId}/request-information`, { requirements: [{ kind: 'trade_licence', dueBy }], reason: 'The licence on file expired' });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toMatchObject({ status: 'PENDING_VERIFICATION', requirementsDue: [{ kind: 'trade_licence', dueBy, pastDue: false }] });
    expect((await call(running.baseUrl, 'GET', `/v1/trdp/accounts/${accountId}`, { headers: as(platform) })).body.data.requirementsDue).toEqual([{ kind: 'trade_licence', dueBy, pastDue: false }]);

    const approved = await staff(`/${accountId}/approve`, { reason: 'Licence checked against the registry' });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'VERIFIED', statusReason: 'Licence checked against the registry', requirementsDue: [] });
    const events = await history(accountId);
    expect(events.map((e) => e.type)).toEqual(['AccountCreated', 'AccountInformationRequested', 'AccountVerified']);
    expect(events[1].data).toMatchObject({ decidedBy: { type: 'admin', id: 'admin' }, requirements: [{ kind: 'trade_licence', dueBy }], reason: 'The licence on file expired' });
    expect(events[2].data).toMatchObject({ decidedBy: { type: 'admin', id: 'admin' }, reason: 'Licence checked against the registry' });

    // Verified is done: approving or rejecting again is refused with a code of its own, writing nothing.
    const again = await staff(`/${accountId}/reject`, { reason: 'Changed my mind' });
    expect([again.status, again.body.error.code]).toEqual([409, 'ACCOUNT_NOT_UNDER_REVIEW']);
    expect(await history(accountId)).toHaveLength(3);

    const told = await waitFor(async () => {
      const page = (await call(running.baseUrl, 'GET', '/v1/trdp/events?type=ACCOUNT_UPDATED&limit=100', { headers: as(platform) })).body.data;
      const mine = page.events.filter((e: { payload: { accountId: string } }) => e.payload.accountId === accountId);
      return mine.length >= 2 && mine;
    }, 'the ACCOUNT_UPDATED events of the request and the approval');
    expect(told.map((e: { payload: { changed: string[] } }) => e.payload.changed).sort()).toEqual([['requirementsDue'], ['status']]);

    const rejectedId = await newAccount('Shady Traders PLC');
    const rejected = await staff(`/${rejectedId}/reject`, { reason: 'The trade licence belongs to another business' });
    expect(rejected.body.data).toMatchObject({ status: 'REJECTED', statusReason: 'The trade licence belongs to another business' });
    expect((await history(rejectedId)).at(-1)).toMatchObject({ type: 'AccountRejected', data: { decidedBy: { type: 'admin', id: 'admin' } } });
    const afterRejection = await staff(`/${rejectedId}/request-information`, { requirements: [{ kind: 'identity', dueBy }] });
    expect([afterRejection.status, afterRejection.body.error.code]).toEqual([409, 'ACCOUNT_REJECTED_IS_FINAL']);
  });

  it('refuses what staff cannot ask, an undeclared field, and anyone without the admin key, writing nothing', async () => {
    const accountId = await newAccount('Careful Seller PLC');
    const past = new Date(Date.now() - 60_000).toISOString();
    const refusals = [
      [await staff(`/${accountId}/request-information`, { requirements: [{ kind: 'identity', dueBy: past }] }), 400, 'ACCOUNT_REQUIREMENTS_INVALID'],
      [await staff(`/${accountId}/request-information`, { requirements: [{ kind: 'passport', dueBy: '2040-01-01T00:00:00Z' }] }), 400, 'BadRequestException'],
      [await staff(`/${accountId}/request-information`, { requirements: [{ kind: 'identity', dueBy: '2040-02-30T00:00:00Z' }] }), 400, 'INVALID_DATE_TIME'],
      [await staff(`/${accountId}/approve`, { reason: 'ok', decidedBy: 'someone else' }), 400, 'UNKNOWN_FIELD'],
      [await staff(`/${accountId}/reject`, {}), 400, 'BadRequestException'],
      [await staff('/acct_unknown/approve', {}), 404, 'ABC_001'],
      [await call(running.baseUrl, 'POST', `/v1/admin/accounts/${accountId}/approve`, { body: {}, headers: as(platform) }), 401, 'AUTH_001'],
    ] as const;
    for (const [res, status, code] of refusals) expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect((await history(accountId)).map((e) => e.type)).toEqual(['AccountCreated']);
  });

  describe("staff members' own keys", () => {
    const bus = () => running.app.get(CommandBus);
    const byKey = (key: string, path: string, body: unknown) => call(running.baseUrl, 'POST', `/v1/admin/accounts${path}`, { body, headers: { 'x-admin-key': key } });
    let almaz: { staffId: string; staffKey: string };
    let dawit: { staffId: string; staffKey: string };

    beforeAll(async () => {
      almaz = await bus().execute(new RegisterStaffMemberCommand('Almaz Tesfaye', { actor: { type: 'admin', id: 'cli:test' } }));
      dawit = await bus().execute(new RegisterStaffMemberCommand('Dawit Bekele', { actor: { type: 'admin', id: 'cli:test' } }));
    });

    it('names the staff member whose key took each decision, in the event and the answer, and never keeps the key', async () => {
      const accountId = await newAccount('Named Staff Seller PLC');
      const asked = await byKey(almaz.staffKey, `/${accountId}/request-information`, { requirements: [{ kind: 'identity', dueBy: '2040-01-01T00:00:00.000Z' }] });
      expect([asked.status, asked.body.data.decidedBy]).toEqual([200, { type: 'admin', id: almaz.staffId }]);
      const approved = await byKey(dawit.staffKey, `/${accountId}/approve`, { reason: 'Identity checked in person' });
      expect([approved.status, approved.body.data.status, approved.body.data.decidedBy]).toEqual([200, 'VERIFIED', { type: 'admin', id: dawit.staffId }]);
      const events = await history(accountId);
      expect(events.slice(1)).toMatchObject([
        { type: 'AccountInformationRequested', data: { decidedBy: { type: 'admin', id: almaz.staffId } } },
        { type: 'AccountVerified', data: { decidedBy: { type: 'admin', id: dawit.staffId }, reason: 'Identity checked in person' } },
      ]);
      const rejectedId = await newAccount('Second Named Seller PLC');
      const rejected = await byKey(almaz.staffKey, `/${rejectedId}/reject`, { reason: 'The licence belongs to another business' });
      expect([rejected.status, rejected.body.data.decidedBy]).toEqual([200, { type: 'admin', id: almaz.staffId }]);
      expect((await history(rejectedId)).at(-1)).toMatchObject({ type: 'AccountRejected', data: { decidedBy: { type: 'admin', id: almaz.staffId } } });
      // The shared key keeps working, and keeps naming `admin`.
      expect((await staff(`/${rejectedId}/reject`, { reason: 'again' })).body.error.code).toBe('ACCOUNT_NOT_UNDER_REVIEW');

      // The log says who was given a key, never the key; the store keeps only its hash.
      const [registered] = (await call(running.baseUrl, 'GET', `/v1/audit/streams/staff-${almaz.staffId}`, { headers: admin })).body.data.events;
      expect(registered).toMatchObject({ type: 'StaffMemberRegistered', data: { staffId: almaz.staffId, name: 'Almaz Tesfaye' } });
      const [leak] = await running.schema!.client.query<{ n: number }>(
        `SELECT (SELECT count(*)::int FROM events WHERE data::text LIKE '%' || $1 || '%' OR metadata::text LIKE '%' || $1 || '%')
              + (SELECT count(*)::int FROM staff_credentials WHERE key_hash = $1) AS n`,
        [almaz.staffKey],
      );
      expect(leak.n).toBe(0);
    });

    it('signs a staff member in to the audit console as themselves: the decision and the page name them', async () => {
      const accountId = await newAccount('Console Named Seller PLC');
      const browser = new ConsoleClient(running.baseUrl);
      expect((await browser.post('/audit/sign-in', { key: almaz.staffKey }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
      const page = `/audit/accounts/${accountId}`;
      const rejected = await browser.post(`${page}/reject`, { reason: 'Trade licence not found in the registry' }, { csrfFrom: page });
      expect(rejected.status).toBe(200);
      expect(rejected.text).toContain(`Almaz Tesfaye (staff ${almaz.staffId})`);
      expect((await history(accountId)).at(-1)).toMatchObject({ type: 'AccountRejected', data: { decidedBy: { type: 'admin', id: almaz.staffId } } });
      expect((await browser.get(`/audit/events?stream=account-${accountId}`)).text).toContain(`Account rejected by staff ${almaz.staffId}`);
    });

    it("refuses a revoked key with 401, writing nothing, and ends the console session it opened", async () => {
      const member = await bus().execute(new RegisterStaffMemberCommand('Leaving Staff', { actor: { type: 'admin', id: 'cli:test' } }));
      const browser = new ConsoleClient(running.baseUrl);
      expect((await browser.post('/audit/sign-in', { key: member.staffKey }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
      await bus().execute(new RevokeStaffKeyCommand(member.staffId, { actor: { type: 'admin', id: 'cli:test' } }));
      const signedOut = await browser.get('/audit/accounts');
      expect([signedOut.status, signedOut.location]).toEqual([303, expect.stringContaining('/audit/sign-in')]);

      const accountId = await newAccount('After Revocation PLC');
      const refused = await byKey(member.staffKey, `/${accountId}/approve`, {});
      expect([refused.status, refused.body.error.code]).toEqual([401, 'AUTH_001']);
      expect((await call(running.baseUrl, 'GET', '/v1/audit/integrity', { headers: { 'x-admin-key': member.staffKey } })).status).toBe(401);
      expect((await browser.post('/audit/sign-in', { key: member.staffKey }, { csrfFrom: '/audit/sign-in' })).status).not.toBe(303);
      expect((await history(accountId)).map((e) => e.type)).toEqual(['AccountCreated']);
      expect((await call(running.baseUrl, 'GET', `/v1/audit/streams/staff-${member.staffId}`, { headers: admin })).body.data.events.map((e: { type: string }) => e.type)).toEqual([
        'StaffMemberRegistered',
        'StaffKeyRevoked',
      ]);
      // The other staff's keys still work.
      expect((await byKey(dawit.staffKey, `/${accountId}/approve`, {})).status).toBe(200);
    });
  });

  it('keeps a document encrypted, out of the log, for its own platform and the operator only', async () => {
    const accountId = await newAccount('Document Seller PLC');
    const uploaded = await upload(platform, accountId, { kind: 'trade_licence', file: PDF });
    expect(uploaded.status).toBe(201);
    const sha256 = createHash('sha256').update(PDF).digest('hex');
    // Uploaded by the API: the platform is who uploaded it, in the answer as in the event.
    expect(uploaded.body.data).toMatchObject({ kind: 'trade_licence', contentType: 'application/pdf', size: PDF.length, sha256, uploadedBy: { type: 'merchant', id: platform.merchantId } });
    // The answer says its mode, as every answered object of the merchant API does; the list is of the documents alone.
    const { livemode, ...document } = uploaded.body.data;
    expect(livemode).toBe(false);
    const { documentId } = document;

    const listed = await call(running.baseUrl, 'GET', `/v1/trdp/accounts/${accountId}/documents`, { headers: as(platform) });
    expect(listed.body.data.documents).toEqual([document]);
    expect((await call(running.baseUrl, 'GET', `/v1/admin/accounts/${accountId}/documents`, { headers: admin })).body.data.documents).toEqual([document]);
    for (const headers of [as(platform), admin]) {
      const path = `/v1/${headers === admin ? 'admin' : 'trdp'}/accounts/${accountId}/documents/${documentId}`;
      expect(await download(path, headers)).toEqual({ status: 200, type: 'application/pdf', bytes: PDF });
    }

    // Another platform: the account, its documents and their bytes are not found; nothing is kept for it.
    expect((await call(running.baseUrl, 'GET', `/v1/trdp/accounts/${accountId}/documents`, { headers: as(other) })).status).toBe(404);
    expect((await download(`/v1/trdp/accounts/${accountId}/documents/${documentId}`, as(other))).status).toBe(404);
    expect((await upload(other, accountId, { kind: 'identity', file: PDF })).status).toBe(404);

    // At rest the bytes are sealed: neither the document nor a part of it is in the table, nor anything of it in the log but its digest.
    const [row] = await running.schema!.client.query<{ sealed: Buffer }>(`SELECT sealed FROM account_documents WHERE document_id = $1`, [documentId]);
    expect(row.sealed.equals(PDF)).toBe(false);
    expect(row.sealed.includes(PDF.subarray(0, 64))).toBe(false);
    const [, recorded] = await history(accountId);
    expect(recorded).toMatchObject({ type: 'AccountDocumentUploaded', data: { documentId, kind: 'trade_licence', size: PDF.length, sha256, uploadedBy: { type: 'merchant', id: platform.merchantId } } });
    expect(JSON.stringify(await history(accountId))).not.toContain(PDF.toString('base64').slice(0, 40));
    const [{ count }] = await running.schema!.client.query<{ count: string }>(`SELECT count(*) FROM account_documents WHERE account_id = $1`, [accountId]);
    expect(Number(count)).toBe(1);
  });

  it('checks a document’s kind, size and type before keeping it, each refusal with its own code', async () => {
    const accountId = await newAccount('Strict Seller PLC');
    const refusals = [
      [await upload(platform, accountId, { kind: 'passport', file: PDF }), 400, 'DOCUMENT_KIND_INVALID'],
      [await upload(platform, accountId, { kind: 'identity' }), 400, 'DOCUMENT_FILE_MISSING'],
      [await upload(platform, accountId, { kind: 'identity', file: Buffer.from('hello'), type: 'text/plain' }), 415, 'DOCUMENT_TYPE_UNSUPPORTED'],
      [await upload(platform, accountId, { kind: 'identity', file: PDF, type: 'image/png' }), 415, 'DOCUMENT_TYPE_UNSUPPORTED'],
      [await upload(platform, accountId, { kind: 'identity', file: Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]) }), 413, 'DOCUMENT_TOO_LARGE'],
      [await upload(platform, accountId, { kind: 'identity', file: PDF, extra: { accountId: 'acct_other' } }), 400, 'UNKNOWN_FIELD'],
    ] as const;
    for (const [res, status, code] of refusals) expect([res.status, res.body.error.code]).toEqual([status, code]);
    const json = await call(running.baseUrl, 'POST', `/v1/trdp/accounts/${accountId}/documents`, { body: { kind: 'identity' }, headers: as(platform) });
    expect(json.status).toBe(415);
    expect((await history(accountId)).map((e) => e.type)).toEqual(['AccountCreated']);
    expect(await running.schema!.client.query(`SELECT 1 FROM account_documents WHERE account_id = $1`, [accountId])).toEqual([]);
    // A PNG is taken as one.
    expect((await upload(platform, accountId, { kind: 'identity', file: PNG, type: 'image/png' })).body.data).toMatchObject({ contentType: 'image/png', size: PNG.length });
  });

  it('shows staff in the audit console what was asked and the documents, and lets them ask there too', async () => {
    const accountId = await newAccount('Console Seller PLC');
    const { documentId } = (await upload(platform, accountId, { kind: 'trade_licence', file: PDF })).body.data;
    const staffConsole = new ConsoleClient(running.baseUrl);
    expect((await staffConsole.post('/audit/sign-in', { key: TEST_ADMIN_KEY }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
    const page = `/audit/accounts/${accountId}`;
    expect((await staffConsole.get(page)).text).toContain(`/audit/accounts/${accountId}/documents/${documentId}`);
    const file = await staffConsole.get(`/audit/accounts/${accountId}/documents/${documentId}`);
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'application/pdf']);

    const asked = await staffConsole.post(`${page}/request-information`, { identity: 'on', tin_certificate: 'on', dueOn: '2040-03-01', reason: 'blurred scan' }, { csrfFrom: page });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('The documents are asked for.');
    // Due by the end of that day in Addis Ababa.
    const dueBy = '2040-03-01T21:00:00.000Z';
    expect((await call(running.baseUrl, 'GET', `/v1/trdp/accounts/${accountId}`, { headers: as(platform) })).body.data.requirementsDue).toEqual([
      { kind: 'identity', dueBy, pastDue: false },
      { kind: 'tin_certificate', dueBy, pastDue: false },
    ]);
    expect((await history(accountId)).at(-1)).toMatchObject({ type: 'AccountInformationRequested', data: { decidedBy: { type: 'admin', id: 'admin' }, reason: 'blurred scan' } });
    expect((await staffConsole.post(`${page}/request-information`, { dueOn: '2040-03-01' }, { csrfFrom: page })).status).toBe(400);
  });

  it('restricts the payouts of an account whose requirement is past due, saying it is restricted, until the document arrives', async () => {
    const deps = running.app.get(PayoutBooksDeps);
    // The sandbox's test TIN verifies it at once; a destination in its own name leaves nothing missing.
    const accountId = await newAccount('Overdue Seller PLC', { tin: '0000000001' });
    const destination = await call(running.baseUrl, 'POST', '/v1/trdp/payout-destination', {
      body: { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Overdue Seller PLC' },
      headers: { ...as(platform), 'x-account-id': accountId },
    });
    expect(destination.status).toBe(200);
    const dueBy = new Date(Date.now() + 3 * 86_400_000).toISOString();
    expect((await staff(`/${accountId}/request-information`, { requirements: [{ kind: 'identity', dueBy }] })).body.data).toMatchObject({ status: 'VERIFIED' });

    // Decided at an instant: before the due instant the account may be paid (it has nothing yet), from it on it is restricted.
    const ask = (payoutId: string, at: number) => requestPayout(deps, { merchantId: accountId, payoutId, trigger: 'on-demand', at: new Date(at).toISOString() }, { actor: { type: 'merchant', id: platform.merchantId } });
    await expect(ask('po_kyc_before', Date.parse(dueBy) - 1)).rejects.toMatchObject({ code: 'NOTHING_TO_PAY_OUT' });
    const refused = ask('po_kyc_due', Date.parse(dueBy));
    await expect(refused).rejects.toMatchObject({ code: 'ACCOUNT_NOT_VERIFIED' });
    await expect(refused).rejects.toThrow(`Account ${accountId} is restricted (identity was due by ${dueBy} and has not arrived)`);

    expect((await upload(platform, accountId, { kind: 'identity', file: PNG, type: 'image/png' })).status).toBe(201);
    expect((await call(running.baseUrl, 'GET', `/v1/trdp/accounts/${accountId}`, { headers: as(platform) })).body.data.requirementsDue).toEqual([]);
    await expect(ask('po_kyc_after', Date.parse(dueBy) + 86_400_000)).rejects.toMatchObject({ code: 'NOTHING_TO_PAY_OUT' });
  });
});
