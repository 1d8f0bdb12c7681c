/**
 * Provider reconciliation end to end: real payments, a refund and a payout go through the sandbox
 * on a running service (PostgreSQL); the sandbox's own statement of the day, exported by the CLI,
 * is reconciled by the CLI (its exit codes, its report) and uploaded in the audit console, as is
 * and with each kind of discrepancy injected into it. Every run is checked in the event log.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addisDayOf, addisMidnight, DAY_MS } from '@app/domain';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { CHAPA_KEYS } from '../support/chapa-keys';
import { type CliRun, finished, spawnCli } from '../support/cli';
import { ConsoleClient, csrfTokenOf } from '../support/console-client';
import { escrowRequest, orderRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/** How long the set-up may take at most, on a loaded machine: it never starts closer than this to an Addis Ababa midnight. */
const LAST_MINUTES_MS = 5 * 60_000;

const HEADER = 'time,type,status,amount,fee,currency,reference,provider_reference,order_id';

interface RecordedRun {
  data: any;
  metadata: any;
}

describe('provider reconciliation (sandbox statement, CLI and audit console)', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  let dir: string;
  let day: string;
  let statementFile: string;
  let statement: string;
  const references = { orderPayment: '', refund: '', transfer: '', payoutId: '' };

  const as = { 'x-api-secret': '' };
  const post = (path: string, body: unknown = {}) => call(running.baseUrl, 'POST', path, { body, headers: as });
  const get = (path: string) => call(running.baseUrl, 'GET', path, { headers: as });

  /** The CLI on the service's data, with `settings` besides its own (a Chapa deployment's, say). */
  function cliWith(settings: Record<string, string>, ...args: string[]): Promise<CliRun> {
    const env = { USER: 'reconcile-test', DATABASE_URL: running.schema!.url, DATABASE_SCHEMA: running.schema!.schema, SECRETS_KEY: '11'.repeat(32), DATA_DIR: dir, ...settings };
    return finished(spawnCli(args, env));
  }
  const cli = (...args: string[]) => cliWith({}, ...args);

  async function runs(): Promise<RecordedRun[]> {
    return running.schema!.client.query<RecordedRun>(
      `SELECT data, metadata FROM events WHERE event_type = 'ProviderStatementReconciled' ORDER BY global_position`,
    );
  }

  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const lineOf = (type: string, reference: string) => statement.split('\r\n').find((l) => l.split(',')[1] === type && l.includes(reference))!;

  /** The real statement with one of each discrepancy: an amount changed, a refund said failed, the payout left out, a payment we never booked. */
  function tampered(): string {
    const payment = lineOf('payment', references.orderPayment);
    const cells = payment.split(',');
    const moreThanPaid = [...cells.slice(0, 3), '251.75', ...cells.slice(4)].join(',');
    const notOurs = [...cells.slice(0, 6), 'att_not_ours', 'SBX-NOT-OURS', 'ord_not_ours'].join(',');
    const refund = lineOf('refund', references.refund);
    const failedRefund = refund.replace(',success,', ',failed,');
    return statement.replace(payment, moreThanPaid).replace(refund, failedRefund).replace(`${lineOf('transfer', references.payoutId)}\r\n`, '') + `${notOurs}\r\n`;
  }

  beforeAll(async () => {
    // Every movement must fall on the one Addis Ababa day the statement covers: a start in the last
    // minutes of a day (21:00 UTC) waits for the next one rather than straddle midnight.
    const untilMidnight = addisMidnight(Date.now()) + DAY_MS - Date.now();
    if (untilMidnight < LAST_MINUTES_MS) await new Promise((resolve) => setTimeout(resolve, untilMidnight + 1000));
    dir = mkdtempSync(join(tmpdir(), 'reconcile-spec-'));
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', REFUND_RETRY_MS: '100', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' } });
    merchant = await registerMarketplace(running.baseUrl, 'Reconciled Merchant');
    as['x-api-secret'] = merchant.apiSecret;

    // A plain order paid.
    const order = await post('/v1/trdp/order', orderRequest({ callbackURL: undefined }));
    const orderId = order.body.data.order_id;
    expect((await post(`/v1/sandbox/orders/${orderId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    // An escrow paid and the merchant's allocation released, then paid out.
    const allocations = [{ merchantId: merchant.merchantId, amount: 600.5 }, { merchantId: merchant.courier1, amount: 400 }];
    const released = (await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }))).body.data.escrowId;
    expect((await post(`/v1/sandbox/orders/${released}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${released}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${released}/release`, { merchantId: merchant.merchantId })).status).toBe(200);
    expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000004321', holderName: 'Reconciled Merchant' })).status).toBe(200);
    const payout = await post('/v1/trdp/payouts');
    expect(payout.status).toBe(201);
    references.payoutId = payout.body.data.payoutId;
    // An escrow paid and cancelled: its refund goes back through the provider.
    const cancelled = (await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined }))).body.data.escrowId;
    expect((await post(`/v1/sandbox/orders/${cancelled}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${cancelled}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${cancelled}/cancel`, {})).status).toBe(200);

    await waitFor(async () => (await get(`/v1/trdp/payouts/${references.payoutId}`)).body.data.status === 'PAID', 'the payout to be paid');
    await waitFor(async () => (await get(`/v1/trdp/escrow/${cancelled}`)).body.data.status === 'REFUNDED', 'the refund to be confirmed');

    const [payment] = await running.schema!.client.query<{ provider_reference: string }>(`SELECT provider_reference FROM sandbox_payments WHERE order_id = $1`, [orderId]);
    const [refund] = await running.schema!.client.query<{ refund_id: string }>(`SELECT refund_id FROM sandbox_refunds WHERE order_id = $1`, [cancelled]);
    references.orderPayment = payment.provider_reference;
    references.refund = refund.refund_id;
    day = addisDayOf(new Date());
    statementFile = join(dir, 'statement.csv');
  });

  afterAll(async () => {
    await running?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("exports the sandbox's statement of the day from its books: three payments, the refund and the payout (the paid order and the released allocation), gross", async () => {
    const exported = await cli('provider-statement', '--mode', 'test', '--date', day, '--out', statementFile);
    expect(exported).toMatchObject({ code: 0, stdout: '' });
    statement = readFileSync(statementFile, 'utf8');
    const rows = statement.trimEnd().split('\r\n');
    expect(rows[0]).toBe(HEADER);
    expect(rows.slice(1).map((r) => r.split(',').slice(1, 6))).toEqual(
      expect.arrayContaining([
        ['payment', 'success', '250.75', '0.00', 'ETB'],
        ['payment', 'success', '1000.50', '0.00', 'ETB'],
        ['refund', 'success', '1000.50', '0.00', 'ETB'],
        ['transfer', 'success', '851.25', '0.00', 'ETB'],
      ]),
    );
    expect(rows).toHaveLength(1 + 5);
    expect(lineOf('transfer', references.payoutId).split(',')[6]).toBe(references.payoutId);
    // Times are Addis Ababa's, and the statement is the same file on standard output.
    expect(rows[1]).toMatch(new RegExp(`^${day}T\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\+03:00,`));
    expect((await cli('provider-statement', '--mode', 'test', '--date', day)).stdout).toBe(statement);
    expect(await cli('provider-statement', '--mode', 'test', '--date', '2026-02-30')).toMatchObject({ code: 2, stderr: expect.stringContaining('2026-02-30 is not a date') });
  });

  it("serves test mode's statement on a deployment with Chapa as its live provider too, and says where live mode's comes from", async () => {
    // Test money moves through the sandbox on every deployment (docs/concepts/modes.md): the same books, the same statement.
    const chapa = { PAYMENT_PROVIDER: 'chapa', ...CHAPA_KEYS };
    expect(await cliWith(chapa, 'provider-statement', '--mode', 'test', '--date', day)).toMatchObject({ code: 0, stdout: statement });
    expect(await cliWith(chapa, 'provider-statement', '--mode', 'live', '--date', day)).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining("live mode's provider is chapa: download its statement from its dashboard") });
    expect(await cli('provider-statement', '--mode', 'live', '--date', day)).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('this deployment has no live provider (PAYMENT_PROVIDER=sandbox)') });
    expect(await cli('provider-statement', '--mode', 'both', '--date', day)).toMatchObject({ code: 2, stderr: expect.stringContaining('--mode must be test or live') });
  });

  it('reconciles the real statement: everything matched, exit 0, and the run recorded with who, the file digest and the counts', async () => {
    const before = (await runs()).length;
    const run = await cli('reconcile', '--provider', 'sandbox', '--file', statementFile, '--by', 'Hana Girma');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`sandbox statement for ${day} (Africa/Addis_Ababa), file SHA-256 ${sha256(statement)}`);
    expect(run.stdout).toMatch(/^matched\s+5$/m);
    expect(run.stdout).toContain('RECONCILED: every line and every movement matched');

    const recorded = await runs();
    expect(recorded).toHaveLength(before + 1);
    expect(recorded[before].data).toEqual({
      runId: expect.stringMatching(/^rec_[0-9a-f]{24}$/),
      provider: 'sandbox',
      statementDay: day,
      fileSha256: sha256(statement),
      ranBy: { via: 'cli', name: 'Hana Girma' },
      counts: { lines: 5, movements: 5, matched: 5, missingOnOurSide: 0, missingOnTheirSide: 0, amountMismatch: 0, statusMismatch: 0 },
      fees: 0,
      discrepancies: [],
      discrepanciesOmitted: 0,
      reconciledAt: expect.any(String),
    });
    expect(recorded[before].metadata.actor).toEqual({ type: 'admin', id: 'cli:Hana Girma' });
    // Without --by, the operating-system user reconciled.
    const anonymous = await cli('--json', 'reconcile', '--provider', 'sandbox', '--file', statementFile);
    expect(anonymous.code).toBe(0);
    expect(JSON.parse(anonymous.stdout)).toMatchObject({ ranBy: 'reconcile-test', clean: true, statementDay: day });
  });

  it('finds each injected discrepancy as its kind, exits 1, and records them', async () => {
    const file = join(dir, 'tampered.csv');
    writeFileSync(file, tampered());
    const run = await cli('--json', 'reconcile', '--provider', 'sandbox', '--file', file, '--by', 'Hana Girma');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.counts).toEqual({ lines: 5, movements: 5, matched: 2, missingOnOurSide: 1, missingOnTheirSide: 1, amountMismatch: 1, statusMismatch: 1 });
    const found = report.discrepancies.map((d: any) => [d.kind, d.movementKind, d.statementAmount, d.statementStatus, d.ourAmount]);
    expect(found).toEqual([
      ['missing-on-our-side', 'payment', 25_075, 'success', undefined],
      ['missing-on-their-side', 'transfer', undefined, undefined, 85_125],
      ['amount-mismatch', 'payment', 25_175, 'success', 25_075],
      ['status-mismatch', 'refund', 100_050, 'failed', 100_050],
    ]);
    expect(report.discrepancies[0].providerReference).toBe('SBX-NOT-OURS');
    expect(report.discrepancies[1]).toMatchObject({ reference: references.payoutId, streamId: `payout-${references.payoutId}` });
    expect(report.discrepancies[2].providerReference).toBe(references.orderPayment);
    expect(report.discrepancies[3].reference).toBe(references.refund);

    const [last] = (await runs()).slice(-1);
    expect(last.data.fileSha256).toBe(sha256(readFileSync(file, 'utf8')));
    expect(last.data.discrepancies).toEqual(report.discrepancies);

    const human = await cli('reconcile', '--provider', 'sandbox', '--file', file);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('NOT RECONCILED: 4 discrepancies');
    expect(human.stdout).toMatch(/missing on our side\s+payment\s+SBX-NOT-OURS/);
  });

  it.each([
    ['a file that is not there', ['--file', 'no-such-statement.csv'], /no such file/],
    ['an amount with three decimals', ['--file', 'BAD_AMOUNT'], /line 2: amount is "250\.755"/],
    ['a statement of several days', ['--file', 'TWO_DAYS'], /covers several days/],
    ['a provider we do not reconcile', ['--provider', 'telebirr'], /--provider must be one of sandbox, chapa/],
  ])('refuses %s: exit 2, a clear message, nothing recorded', async (_, args, message) => {
    const bad = join(dir, 'bad.csv');
    const payment = lineOf('payment', references.orderPayment);
    if (args.includes('BAD_AMOUNT')) writeFileSync(bad, `${HEADER}\r\n${payment.replace(',250.75,', ',250.755,')}\r\n`);
    if (args.includes('TWO_DAYS')) writeFileSync(bad, `${HEADER}\r\n${payment}\r\n${payment.replace(/^\d{4}-\d\d-\d\d/, '2020-01-01')}\r\n`);
    const options = ['--provider', 'sandbox', '--file', statementFile];
    for (let i = 0; i < args.length; i += 2) options[options.indexOf(args[i]) + 1] = ['BAD_AMOUNT', 'TWO_DAYS'].includes(args[i + 1]) ? bad : args[i + 1];
    const before = (await runs()).length;
    const run = await cli('reconcile', ...options);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain('nothing was recorded');
    expect(await runs()).toHaveLength(before);
  });

  describe('in the audit console', () => {
    let console_: ConsoleClient;
    let auditorId: string;

    /** What a browser sends for the upload form: multipart, with the session cookies and the form's token. */
    async function upload(file: string, fields: Record<string, string> = {}, token?: string) {
      const form = new FormData();
      form.set('_csrf', token ?? csrfTokenOf((await console_.get('/audit/reconciliations')).text));
      form.set('provider', 'sandbox');
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      form.set('statement', new Blob([file], { type: 'text/csv' }), 'statement.csv');
      const cookies = ['audit_session', 'console_csrf'].map((name) => `${name}=${console_.cookie(name)}`).join('; ');
      const response = await fetch(`${running.baseUrl}/audit/reconciliations`, { method: 'POST', body: form, headers: { cookie: cookies }, redirect: 'manual' });
      return { status: response.status, text: await response.text(), headers: response.headers };
    }

    beforeAll(async () => {
      const created = await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance team' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
      auditorId = created.body.data.auditorId;
      console_ = new ConsoleClient(running.baseUrl);
      expect((await console_.post('/audit/sign-in', { key: created.body.data.auditorKey }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
    });

    it('reconciles an uploaded statement, shows each discrepancy, and records the run as the signed-in auditor', async () => {
      const file = tampered();
      const page = await upload(file);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
      expect(page.text).toContain('Not reconciled: 4 discrepancies to look into.');
      expect(page.text).toContain('<td class="num" id="count-matched">2</td>');
      for (const what of ['Missing on our side', 'Missing on theirs', 'Amount mismatch', 'Status mismatch']) expect(page.text).toContain(`<td data-label="What">${what}</td>`);
      expect(page.text).toContain('SBX-NOT-OURS');

      const [last] = (await runs()).slice(-1);
      expect(last.data).toMatchObject({ provider: 'sandbox', statementDay: day, fileSha256: sha256(file), ranBy: { via: 'audit-console', name: auditorId } });
      expect(last.metadata.actor).toEqual({ type: 'auditor', id: auditorId });

      const clean = await upload(statement, { day });
      expect(clean.text).toContain('Reconciled: every line and every movement matched.');
    });

    it('lists the runs, and the event log reads each as a sentence', async () => {
      const list = await console_.get('/audit/reconciliations');
      expect(list.status).toBe(200);
      expect(list.text).toContain('Hana Girma (CLI)');
      expect(list.text).toContain(`${auditorId} (audit console)`);
      expect(list.text).toContain(`<code>${sha256(statement)}</code>`);
      const log = await console_.get('/audit/events?type=ProviderStatementReconciled');
      expect(log.text).toContain(`Hana Girma (CLI) reconciled the sandbox statement for ${day} (file SHA-256 ${sha256(statement).slice(0, 12)}…): all 5 lines and 5 movements matched`);
      expect(log.text).toContain('2 matched; 1 missing on our side, 1 missing on theirs, 1 amount and 1 status mismatches');
    });

    it('records nothing for an upload without the form token, or of a file that is not a statement', async () => {
      const before = (await runs()).length;
      expect((await upload(statement, {}, 'not-the-token')).status).toBe(403);
      const unreadable = await upload('hello,world\r\n1,2\r\n');
      expect(unreadable.status).toBe(400);
      expect(unreadable.text).toContain('The header lacks the columns');
      const cookie = ['audit_session', 'console_csrf'].map((name) => `${name}=${console_.cookie(name)}`).join('; ');
      const malformed = await fetch(`${running.baseUrl}/audit/reconciliations`, { method: 'POST', headers: { cookie, 'content-type': 'multipart/form-data; boundary=x' }, body: '--x\r\nnot a part' });
      expect(malformed.status).toBe(400);
      expect(await runs()).toHaveLength(before);
    });
  });
});
