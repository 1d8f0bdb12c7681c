import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { createTestSchema, type TestSchema } from '../support/postgres';

/**
 * An API keeps the histories of the accounts its escrows pay, and of the commission rules they pay,
 * from one create to the next (libs/event-store/src/kept-histories.ts), and decides the next create on
 * them without reading, its append checking that they still stand (libs/infrastructure/src/on-kept-histories.ts).
 * An account rejected or closed through another instance of the service on the same database since is
 * refused at the next escrow this one creates for it, as if it had kept nothing, and nothing is written;
 * a rule set there since applies to that escrow.
 */
describe('payees an API keeps, changed through another instance', () => {
  let schema: TestSchema;
  let here: RunningApp;
  let there: RunningApp;
  let platform: TestMerchant;
  const headers = () => ({ 'x-api-secret': platform.apiSecret });
  const create = (reference: string) =>
    call(here.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined, allocations: [{ merchantId: reference, amount: 1000.5 }] }), headers: headers() });
  const escrowEvents = async () => (await schema.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE stream_id LIKE 'escrow-%'`))[0].n;

  beforeAll(async () => {
    schema = await createTestSchema('kept');
    here = await startApp({ schema });
    there = await startApp({ schema, env: { ROLE: 'api' } });
    platform = await registerMerchant(here.baseUrl, 'Kept Payees Market');
  });

  afterAll(async () => {
    await there?.stop();
    await here?.stop();
    await schema?.drop();
  });

  it('refuses an account rejected, and one closed, through the other instance since this one paid them, writing nothing', async () => {
    const accounts: Record<string, string> = {};
    for (const reference of ['kept-rejected', 'kept-closed']) {
      const created = await call(here.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name: `Shop ${reference}`, type: 'business', reference }, headers: headers() });
      expect([created.status, created.body.data.status]).toEqual([201, 'PENDING_VERIFICATION']);
      accounts[reference] = created.body.data.accountId;
    }
    // This instance pays both by their references, and keeps them; the escrow of the one to be closed is
    // cancelled unpaid, so the account holds nothing open.
    expect((await create('kept-rejected')).status).toBe(201);
    const toCancel = await create('kept-closed');
    expect(toCancel.status).toBe(201);
    expect((await call(here.baseUrl, 'POST', `/v1/trdp/escrow/${toCancel.body.data.escrowId}/cancel`, { body: { reason: 'out of stock' }, headers: headers() })).status).toBe(200);

    const rejected = await call(there.baseUrl, 'POST', `/v1/admin/accounts/${accounts['kept-rejected']}/reject`, { body: { reason: 'identity not confirmed' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect([rejected.status, rejected.body.data.status]).toEqual([200, 'REJECTED']);
    const closed = await call(there.baseUrl, 'POST', `/v1/trdp/accounts/${accounts['kept-closed']}/close`, { body: { reason: 'The seller left the marketplace' }, headers: headers() });
    expect([closed.status, closed.body.data.status]).toEqual([200, 'CLOSED']);

    const before = await escrowEvents();
    for (const reference of ['kept-rejected', 'kept-closed']) {
      const refused = await create(reference);
      expect([refused.status, refused.body.error.code]).toEqual([404, 'UNKNOWN_ALLOCATION_MERCHANT']);
    }
    expect(await escrowEvents()).toBe(before);
  });

  it('applies a commission rule set through the other instance since this one kept the rules (none then) to its next escrow', async () => {
    const created = await call(here.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name: 'Shop kept-charged', type: 'business', reference: 'kept-charged' }, headers: headers() });
    expect(created.status).toBe(201);
    const fee = (res: Awaited<ReturnType<typeof create>>) => [res.status, res.body.data.allocations[0].fee, res.body.data.allocations[0].commission?.version ?? null];
    expect(fee(await create('kept-charged'))).toEqual([201, 0, null]);
    expect(fee(await create('kept-charged'))).toEqual([201, 0, null]);

    const set = await call(there.baseUrl, 'POST', '/v1/trdp/commission', { body: { percentage: 10 }, headers: headers() });
    expect([set.status, set.body.data.version]).toEqual([200, 1]);
    // 10 % of 1,000.50 is 100.05.
    expect(fee(await create('kept-charged'))).toEqual([201, 100.05, 1]);
  });
});
