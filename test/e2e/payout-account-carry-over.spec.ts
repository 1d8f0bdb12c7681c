import { PayoutDestinations } from '@app/credentials';
import { streams } from '@app/domain';
import { EVENT_STORE, type EventStore, type NewEvent } from '@app/event-store';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { waitFor } from '../support/wait';

const FAST = { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' };

/**
 * A merchant whose payouts, settings and destination the previous release wrote in its payout account
 * stream (`payouts-{merchantId}`): carried over once by the next start of the service (here only the
 * projector's), it shows the same payouts, settings and destination, and the payout that release left in
 * flight is paid exactly once when the workers start.
 */
describe('a payout account stream written by the previous release, carried over', () => {
  let schema: TestSchema;
  let running: RunningApp | undefined;
  let shop: TestMarketplace;

  const get = (path: string) => call(running!.baseUrl, 'GET', path, { headers: { 'x-api-secret': shop.apiSecret } });
  const audit = (path: string) => call(running!.baseUrl, 'GET', path, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
  /** In santim. */
  const balance = async (account: string) => {
    const accounts = (await audit(`/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`)).body.data.accounts;
    return accounts.length ? Math.round(accounts[0].balance * 100) : 0;
  };
  const typesOf = async (streamId: string) => (await audit(`/v1/audit/streams/${streamId}`)).body.data.events.map((e: { type: string }) => e.type);
  /** What the merchant sees of its payouts, settings and destination. */
  const shown = async () => ({
    payouts: (await get('/v1/trdp/payouts')).body.data,
    old1: (await get('/v1/trdp/payouts/po_old1')).body.data,
    old2: (await get('/v1/trdp/payouts/po_old2')).body.data,
    settings: (await get('/v1/trdp/payout-settings')).body.data,
    destination: (await get('/v1/trdp/payout-destination')).body.data,
  });

  const restart = async (env: Record<string, string> = { ...FAST, ROLE: 'projector' }) => {
    await running!.stop();
    running = await startApp({ schema, env });
  };

  beforeAll(async () => {
    schema = await createTestSchema('carry');
    running = await startApp({ schema, env: FAST });
    shop = await registerMarketplace(running.baseUrl, 'Old Shop');
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', {
      body: escrowRequest({ callbackURL: undefined, allocations: [{ merchantId: shop.merchantId, amount: 600.5 }, { merchantId: shop.courier1, amount: 400 }] }),
      headers: { 'x-api-secret': shop.apiSecret },
    });
    const { escrowId } = created.body.data;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers: { 'x-api-secret': shop.apiSecret } });
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: shop.merchantId }, headers: { 'x-api-secret': shop.apiSecret } });
    await waitFor(async () => (await balance(`merchant:${shop.merchantId}:payable`)) === 60_050, 'the release in the payable');
    const kept = await running.app.get(PayoutDestinations).keep(shop.merchantId, '1000123456789');
    await running.stop();

    // The projector alone, as the previous release left the log: its payout account stream is appended below, and only the next start carries it over.
    running = await startApp({ schema, env: { ...FAST, ROLE: 'projector' } });
    const m = shop.merchantId;
    const actor = { actor: { type: 'merchant' as const, id: m } };
    const system = { actor: { type: 'system' as const, id: 'payouts' } };
    const destination = { kind: 'bank', institution: '946', holderName: 'Old Shop', accountMask: kept.mask, accountRef: kept.accountRef, accountFingerprint: kept.fingerprint };
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
    // The one in flight was asked for just before the upgrade: the provider questions ask about it from then on.
    const requested = (payoutId: string, amount: number, requestedAt: string) => ({
      type: 'PayoutRequested',
      data: { merchantId: m, payoutId, amount, destinationVersion: 1, settles: [{ eventId: `e-${payoutId}`, amount }], trigger: 'on-demand', requestedAt },
      metadata: actor,
    });
    // As the previous release wrote them: the destination, the settings (no scheduleSetAt), a payout paid and one in flight.
    const previousRelease: NewEvent[] = [
      { type: 'PayoutDestinationSet', data: { merchantId: m, version: 1, destination, setAt: yesterday }, metadata: actor },
      { type: 'PayoutSettingsChanged', data: { merchantId: m, version: 1, settings: { schedule: { kind: 'manual' }, minimumAmount: 50_00, callbackUrl: null }, changedAt: yesterday }, metadata: actor },
      requested('po_old1', 10_050, yesterday),
      { type: 'PayoutSent', data: { merchantId: m, payoutId: 'po_old1', providerReference: 'po_old1', sentAt: yesterday }, metadata: system },
      { type: 'PayoutPaid', data: { merchantId: m, payoutId: 'po_old1', amount: 10_050, externalReferenceId: 'TR-old1', paidAt: yesterday }, metadata: system },
      requested('po_old2', 50_000, new Date().toISOString()),
    ];
    await running.app.get<EventStore>(EVENT_STORE).append(streams.payouts(m), previousRelease, 'no_stream');
    await waitFor(async () => (await balance(`merchant:${shop.merchantId}:payable`)) === 0, 'the old payouts in the ledger');
  });

  afterAll(async () => {
    await running?.stop();
    await schema?.drop();
  });

  it('shows the same payouts, settings and destination once a start carried it over, and a second start carries nothing', async () => {
    const before = await shown();
    expect(before.old2).toMatchObject({ status: 'REQUESTED', amount: 500, destinationVersion: 1, movements: 1 });

    // The next start carries it over; the one after finds it carried and appends nothing.
    await restart();
    const head = await running!.app.get<EventStore>(EVENT_STORE).head();
    await restart();
    expect(await running!.app.get<EventStore>(EVENT_STORE).head()).toEqual(head);

    // The payouts as the views showed them, the settings and destination as the previous release did.
    const after = await shown();
    expect({ payouts: after.payouts, old1: after.old1, old2: after.old2 }).toEqual({ payouts: before.payouts, old1: before.old1, old2: before.old2 });
    expect(after.settings).toMatchObject({ version: 1, schedule: 'manual', minimumAmount: 50 });
    expect(after.destination).toMatchObject({ version: 1, accountNumber: '••••6789' });
    expect(await typesOf(streams.payouts(shop.merchantId))).toEqual(['PayoutDestinationSet', 'PayoutSettingsChanged', 'PayoutRequested', 'PayoutSent', 'PayoutPaid', 'PayoutRequested', 'PayoutAccountCarriedOver']);
    expect(await typesOf(streams.payout('po_old2'))).toEqual(['PayoutCarriedOver']);
  });

  it('pays the payout left in flight exactly once, in its own stream, when the workers start', async () => {
    await restart(FAST);
    const paid = await waitFor(async () => {
      const data = (await get('/v1/trdp/payouts/po_old2')).body.data;
      return data?.status === 'PAID' && data;
    }, 'the payout left in flight to be paid');
    expect(paid).toMatchObject({ amount: 500, destinationVersion: 1 });
    await waitFor(async () => (await balance('test:payouts:in-transit')) === 0, 'both payouts out of transit');
    expect(await typesOf(streams.payout('po_old2'))).toEqual(['PayoutCarriedOver', 'PayoutSent', 'PayoutPaid']);
    expect((await typesOf(streams.payouts(shop.merchantId))).at(-1)).toBe('PayoutAccountCarriedOver');
    expect(await balance(`merchant:${shop.merchantId}:payable`)).toBe(0);
  });
});
