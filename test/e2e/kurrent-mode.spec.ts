import { FakeKurrentClient } from '../../libs/event-store/src/testing/fake-kurrent-client';
import { KurrentEventStore } from '../../libs/event-store/src/kurrentdb/kurrent-event-store';
import { startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, registerMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * EVENT_STORE=eventstoredb end to end, with KurrentDB's client replaced by the in-memory fake of its
 * boundary (no server can run here): the events live outside PostgreSQL, the read models, the ledger
 * and the audit API's copy of the log inside it.
 */
it('runs the payment lifecycle and the audit API with the events in KurrentDB', async () => {
  const store = new KurrentEventStore(new FakeKurrentClient(), { filter: undefined, resubscribeDelayMs: 5 });
  const running = await startApp({
    env: { EVENT_STORE: 'eventstoredb', EVENTSTORE_CONNECTION_STRING: 'kurrentdb://stand-in:2113?tls=false', SANDBOX_DELAY_MS: '30' },
    eventStore: store,
  });
  try {
    const merchant = await registerMarketplace(running.baseUrl);
    const headers = { 'x-api-secret': merchant.apiSecret };
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined }), headers });
    expect(created.status).toBe(201);
    const escrowId = created.body.data.escrowId;
    expect((await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: escrowId }, headers })).body.data.status).toBe('PENDING');
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers });
    const released = await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: merchant.seller1 }, headers });
    expect(released.body.data.status).toBe('PARTIALLY_RELEASED');

    // PostgreSQL holds no event table at all: the log is in the (stand-in) KurrentDB.
    const [local] = await running.schema!.client.query<{ tables: number }>(
      `SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_schema = current_schema() AND table_name IN ('events', 'streams')`,
    );
    expect(local.tables).toBe(0);
    expect((await store.readStream(`escrow-${escrowId}`)).map((e) => e.type)).toEqual(['EscrowCreated', 'EscrowFunded', 'AllocationReleased']);

    const auditor = await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const audit = { 'x-auditor-key': auditor.body.data.auditorKey };
    const history = await waitFor(async () => {
      const stream = await call(running.baseUrl, 'GET', `/v1/audit/streams/escrow-${escrowId}`, { headers: audit });
      return stream.body.data.events.length === 3 && stream.body.data.events;
    }, 'the audit copy of the escrow stream');
    expect(history.map((e: { type: string; hash: string }) => [e.type, e.hash.length])).toEqual([
      ['EscrowCreated', 64],
      ['EscrowFunded', 64],
      ['AllocationReleased', 64],
    ]);
    const page = await call(running.baseUrl, 'GET', `/v1/audit/events?stream=escrow-${escrowId}`, { headers: audit });
    expect(page.body.data.events.map((e: { type: string }) => e.type)).toEqual(['EscrowCreated', 'EscrowFunded', 'AllocationReleased']);
    const integrity = await call(running.baseUrl, 'GET', '/v1/audit/integrity', { headers: audit });
    expect(integrity.body.data).toMatchObject({ ok: true, firstBreak: null });
    expect(integrity.body.data.eventsChecked).toBeGreaterThanOrEqual(4);
    const trial = await call(running.baseUrl, 'GET', '/v1/audit/ledger/trial-balance?mode=test', { headers: audit });
    expect(trial.body.data.balanced).toBe(true);
    const escrowAccount = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=escrow:${escrowId}`, { headers: audit });
    expect(escrowAccount.body.data.accounts).toEqual([expect.objectContaining({ balance: 400 })]);
  } finally {
    await running.close();
  }
});
