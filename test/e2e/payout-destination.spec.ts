import { type RunningApp, startApp } from '../support/app';
import { countWrites, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';

/** A merchant tells us where its payouts go; the number is a secret like a webhook secret. */
describe('payout destination', () => {
  let running: RunningApp;
  let merchant: TestMerchant;
  let other: TestMerchant;
  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const ACCOUNT = '1000123456789';
  const bank = { kind: 'bank', institution: '946', accountNumber: ACCOUNT, holderName: 'Abebe Kebede' };

  beforeAll(async () => {
    running = await startApp();
    merchant = await registerMerchant(running.baseUrl, 'Paid Out');
    other = await registerMerchant(running.baseUrl, 'Someone Else');
  });
  afterAll(() => running?.close());

  const set = (body: unknown, m = merchant) => call(running.baseUrl, 'POST', '/v1/trdp/payout-destination', { body, headers: as(m) });
  const get = (m = merchant) => call(running.baseUrl, 'GET', '/v1/trdp/payout-destination', { headers: as(m) });

  it('is none until set, then shows the account masked; the number is in neither the log nor the table in clear', async () => {
    expect((await get()).body.data).toBeNull();
    const res = await set(bank);
    expect(res.status).toBe(200);
    // A merchant of its own: no legal name to compare the holder with, and no hold.
    expect(res.body.data).toEqual({ kind: 'bank', institution: '946', holderName: 'Abebe Kebede', accountNumber: '••••6789', version: 1, holderNameMatches: null, warning: null, payoutsHeldUntil: null, livemode: false });
    expect((await get()).body.data).toEqual(res.body.data);
    const db = running.schema!.client;
    const logged = JSON.stringify(await db.query(`SELECT event_type, data, metadata FROM events`));
    expect(logged).toContain('PayoutDestinationSet');
    expect(logged).not.toContain(ACCOUNT);
    const [stored] = await db.query<{ account_sealed: string }>(`SELECT account_sealed FROM payout_accounts`);
    expect(stored.account_sealed).not.toContain(ACCOUNT);
    // Another merchant has none.
    expect((await get(other)).body.data).toBeNull();
  });

  it('records a change as a new version, and the same account again as no change', async () => {
    const wallet = { kind: 'wallet', institution: 'telebirr', accountNumber: '0911223344', holderName: 'Abebe Kebede' };
    expect((await set(wallet)).body.data).toMatchObject({ kind: 'wallet', institution: 'telebirr', accountNumber: '••••3344', version: 2 });
    const before = await countWrites(running.schema!.client);
    expect((await set(wallet)).body.data.version).toBe(2);
    expect((await countWrites(running.schema!.client)).events).toBe(before.events);
  });

  it.each<[Record<string, string>, string, string]>([
    [{ ...bank, kind: 'card' }, 'BadRequestException', 'kind'],
    [{ ...bank, accountNumber: '12-34' }, 'BadRequestException', 'accountNumber must be 6 to 30 digits'],
    [{ ...bank, holderName: '' }, 'BadRequestException', 'holderName'],
    [{ ...bank, holderName: '   ' }, 'INVALID_DISPLAY_TEXT', 'holderName must not be blank'],
    [{ ...bank, holderName: 'Abebe \u202Eedebek' }, 'INVALID_DISPLAY_TEXT', 'holderName must not hold control, format or line-breaking characters (U+202E at position 7)'],
    ...['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF'].map((hidden): [Record<string, string>, string, string] => [
      { ...bank, holderName: `Abebe${hidden} Kebede` },
      'INVALID_DISPLAY_TEXT',
      `(U+${hidden.codePointAt(0)!.toString(16).toUpperCase()} at position 6)`,
    ]),
    [{ ...bank, holderName: 'Abebe\nKebede' }, 'INVALID_DISPLAY_TEXT', '(U+000A at position 6)'],
    [{ ...bank, iban: 'ET00' }, 'UNKNOWN_FIELD', 'iban'],
  ])('refuses %j with 400 %s naming %s, writing nothing', async (body, code, mentions) => {
    const before = await countWrites(running.schema!.client);
    const res = await set(body);
    expect([res.status, res.body.error.code]).toEqual([400, code]);
    expect(res.body.message).toContain(mentions);
    expect(res.body.message).not.toContain(ACCOUNT);
    expect(await countWrites(running.schema!.client)).toEqual(before);
  });
});
