import { verifyCallback } from '@app/callback-receiver';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { ConsoleClient } from '../support/console-client';
import { escrowRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { beforeInstant } from '../support/before-instant';
import { CallbackReceiver } from '../support/callback-receiver';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * Automatic release and disputes over HTTP on PostgreSQL, with the scheduler running: what the
 * responses and GET show, the releases the scheduler makes at the instant, the frozen money a dispute
 * holds and the split that resolves it, the ledger, the signed DISPUTED, DISPUTE_RESOLVED and RELEASED
 * callbacks, and the refusals that write nothing.
 */
describe('automatic release and disputes over HTTP', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  let receiver: CallbackReceiver;
  let auditorKey: string;

  const headers = () => ({ 'x-api-secret': merchant.apiSecret });
  const post = (path: string, body: unknown, extra: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body, headers: { ...headers(), ...extra } });
  const get = (path: string) => call(running.baseUrl, 'GET', path, { headers: headers() });
  const balance = async (account: string) => {
    const res = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`, { headers: { 'x-auditor-key': auditorKey } });
    return res.body.data.accounts.length ? Math.round(res.body.data.accounts[0].balance * 100) : 0;
  };
  const eventsOf = async (escrowId: string, types: string[]) =>
    (await running.schema!.client.query<{ event_type: string }>(`SELECT event_type FROM events WHERE stream_id = $1 AND event_type = ANY($2) ORDER BY global_position`, [`escrow-${escrowId}`, types])).map(
      (row) => row.event_type,
    );
  const callbackURL = () => receiver.url;
  const payloads = (escrowId: string, status: string) =>
    receiver.received.filter((c) => JSON.parse(c.body).escrowId === escrowId && JSON.parse(c.body).status === status).map((c) => verifyCallback(merchant.webhookSecret, c.headers, c.body));
  const allocation = (res: { body: any }, merchantId: string) => res.body.data.allocations.find((a: { merchantId: string }) => a.merchantId === merchantId);

  /** An escrow of seller-1 600.50 and courier-1 400 ETB, paid. */
  async function heldEscrow(extra: Record<string, unknown> = {}): Promise<string> {
    const created = await post('/v1/trdp/escrow/order', { ...escrowRequest({ callbackURL: callbackURL() }), ...extra });
    expect(created.status).toBe(201);
    const { escrowId } = created.body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    return escrowId;
  }

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    // Every open dispute is overdue at once (DISPUTE_MAX_DAYS=0), so the audit console lists it.
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', RECONCILE_INTERVAL_MS: '500', DISPUTE_MAX_DAYS: '0' } });
    merchant = await registerMarketplace(running.baseUrl);
    auditorKey = (await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.auditorKey;
  });
  afterAll(async () => {
    await running?.close();
    await receiver?.close();
  });

  describe('automatic release', () => {
    it('releases what is still held at the instant set at creation, as automatic releases, with signed RELEASED callbacks', async () => {
      // Paid and released in part by hand before the expiry, which comes a second before the automatic release.
      const {
        sent: { escrowId, autoReleaseAt },
      } = await beforeInstant(3_000, async (expiredAt) => {
        const autoReleaseAt = new Date(Date.parse(expiredAt) + 1_000).toISOString();
        const created = await post('/v1/trdp/escrow/order', { ...escrowRequest({ callbackURL: callbackURL() }), expiredAt, autoReleaseAt });
        expect(created.status).toBe(201);
        const { escrowId } = created.body.data;
        const paid = await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
        expect([paid.status, paid.body.data.escrow_status]).toEqual([200, 'HELD']);
        expect((await get(`/v1/trdp/escrow/${escrowId}`)).body.data.autoReleaseAt).toBe(autoReleaseAt);
        expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1, amount: 100 })).status).toBe(200);
        return { escrowId, autoReleaseAt };
      });

      await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'RELEASED', 'the automatic release');
      const releases = (await get(`/v1/trdp/escrow/${escrowId}/releases`)).body.data.releases;
      expect(releases.map((r: { merchantId: string; amount: number; automatic: boolean }) => [r.merchantId, r.amount, r.automatic])).toEqual([
        [merchant.seller1, 100, false],
        [merchant.seller1, 500.5, true],
        [merchant.courier1, 400, true],
      ]);
      for (const r of releases.filter((r: { automatic: boolean }) => r.automatic)) expect(Date.parse(r.releasedAt)).toBeGreaterThanOrEqual(Date.parse(autoReleaseAt));
      await waitFor(async () => (await balance(`escrow:${escrowId}`)) === 0, 'the escrow account to be empty');
      await waitFor(async () => payloads(escrowId, 'RELEASED').length === 3, 'three RELEASED callbacks');
      expect(payloads(escrowId, 'RELEASED').filter((p) => p.automatic === true).map((p) => p.amount).sort()).toEqual([400, 500.5]);
    });

    it('counts releaseAfterDays from the payment, and lets the merchant move the release (it happens then) or clear it', async () => {
      const days = await heldEscrow({ releaseAfterDays: 7 });
      const escrow = (await get(`/v1/trdp/escrow/${days}`)).body.data;
      const paidAt = (await running.schema!.client.query<{ paid: string }>(`SELECT data->>'paidAt' AS paid FROM events WHERE stream_id = $1 AND event_type = 'EscrowFunded'`, [`escrow-${days}`]))[0].paid;
      expect(escrow.autoReleaseAt).toBe(new Date(Date.parse(paidAt) + 7 * 24 * 3600 * 1000).toISOString());
      const cleared = await post(`/v1/trdp/escrow/${days}/auto-release`, { autoReleaseAt: null });
      expect([cleared.status, cleared.body.data.autoReleaseAt]).toEqual([200, null]);

      const moved = await heldEscrow();
      const { instant: soon, sent: answer } = await beforeInstant(1_500, async (autoReleaseAt) => {
        const moving = await post(`/v1/trdp/escrow/${moved}/auto-release`, { autoReleaseAt });
        expect(moving.status).toBe(200);
        return moving;
      });
      expect([answer.status, answer.body.data.autoReleaseAt]).toEqual([200, soon]);
      await waitFor(async () => (await get(`/v1/trdp/escrow/${moved}`)).body.data.status === 'RELEASED', 'the moved automatic release');
      expect(await eventsOf(moved, ['AutoReleaseRescheduled', 'AllocationReleased'])).toEqual(['AutoReleaseRescheduled', 'AllocationReleased', 'AllocationReleased']);
    });

    it('refuses an instant before expiry, both forms at once, a move into the past and an unknown field: 400, nothing written', async () => {
      const before = await post('/v1/trdp/escrow/order', { ...escrowRequest(), expiredAt: new Date(Date.now() + 600_000).toISOString(), autoReleaseAt: new Date(Date.now() + 60_000).toISOString() });
      expect([before.status, before.body.error.code]).toEqual([400, 'AUTO_RELEASE_BEFORE_EXPIRY']);
      const both = await post('/v1/trdp/escrow/order', { ...escrowRequest(), autoReleaseAt: new Date(Date.now() + 86_400_000).toISOString(), releaseAfterDays: 3 });
      expect([both.status, both.body.error.code]).toEqual([400, 'AUTO_RELEASE_CONFLICT']);
      const tooLong = await post('/v1/trdp/escrow/order', { ...escrowRequest(), releaseAfterDays: 91 });
      expect(tooLong.status).toBe(400);

      const escrowId = await heldEscrow();
      const past = await post(`/v1/trdp/escrow/${escrowId}/auto-release`, { autoReleaseAt: new Date(Date.now() - 1_000).toISOString() });
      expect([past.status, past.body.error.code]).toEqual([400, 'AUTO_RELEASE_OUT_OF_RANGE']);
      const typo = await post(`/v1/trdp/escrow/${escrowId}/auto-release`, { autoReleaseAt: null, at: 'now' });
      expect(typo.body.error).toEqual({ code: 'UNKNOWN_FIELD', message: 'Unknown field: at' });
      expect(await eventsOf(escrowId, ['AutoReleaseRescheduled'])).toEqual([]);
    });
  });

  describe('disputes', () => {
    it('freezes an allocation; nothing moves it until a resolution splits it into a release and a refund; ledger and signed callbacks follow', async () => {
      const escrowId = await heldEscrow();
      const opened = await post(`/v1/trdp/escrow/${escrowId}/dispute`, { merchantId: merchant.seller1, reason: 'parcel never arrived' });
      expect(opened.status).toBe(200);
      expect(opened.body.data.status).toBe('DISPUTED');
      expect(allocation(opened, merchant.seller1)).toMatchObject({ status: 'DISPUTED', held: 0, frozen: 600.5, dispute: { reason: 'parcel never arrived' } });
      expect(allocation(opened, merchant.courier1)).toMatchObject({ status: 'HELD', held: 400, frozen: 0 });

      for (const [path, body] of [
        ['release', { merchantId: merchant.seller1 }],
        ['refund', { merchantId: merchant.seller1, reason: 'x' }],
        ['cancel', {}],
        ['dispute', { merchantId: merchant.seller1, reason: 'again' }],
      ] as const) {
        const refused = await post(`/v1/trdp/escrow/${escrowId}/${path}`, body);
        expect([path, refused.status, refused.body.error.code]).toEqual([path, 409, 'ALLOCATION_DISPUTED']);
      }
      const mismatch = await post(`/v1/trdp/escrow/${escrowId}/dispute/resolve`, { release: 300, refund: 300 });
      expect([mismatch.status, mismatch.body.error.code]).toEqual([400, 'DISPUTE_SPLIT_MISMATCH']);
      expect(await eventsOf(escrowId, ['DisputeOpened', 'DisputeResolved', 'AllocationReleased', 'EscrowRefundRequested', 'EscrowCancelled'])).toEqual(['DisputeOpened']);
      // The escrow's account still holds all of it: frozen money is the escrow's until the split.
      await waitFor(async () => (await balance(`escrow:${escrowId}`)) === 100_050, 'the escrow account to hold the frozen money');

      const resolved = await post(`/v1/trdp/escrow/${escrowId}/dispute/resolve`, { release: 300, refund: 300.5, reason: 'half arrived' });
      expect(resolved.status).toBe(200);
      expect(allocation(resolved, merchant.seller1)).toMatchObject({ status: 'REFUND_PENDING', frozen: 0, released: 300, refunded: 300.5 });
      expect(allocation(resolved, merchant.seller1).dispute).toBeUndefined();
      expect(await eventsOf(escrowId, ['DisputeOpened', 'DisputeResolved', 'AllocationReleased', 'EscrowRefundRequested'])).toEqual([
        'DisputeOpened',
        'DisputeResolved',
        'AllocationReleased',
        'EscrowRefundRequested',
      ]);
      await waitFor(async () => (await balance(`escrow:${escrowId}`)) === 40_000, 'the escrow account to hold only the courier');
      expect(await balance(`merchant:${merchant.seller1}:payable`)).toBeGreaterThanOrEqual(30_000);
      await waitFor(async () => allocation(await get(`/v1/trdp/escrow/${escrowId}`), merchant.seller1).status === 'REFUNDED', 'the refund to be confirmed');

      await waitFor(async () => payloads(escrowId, 'REFUNDED').length === 1 && payloads(escrowId, 'DISPUTE_RESOLVED').length === 1, 'the dispute callbacks');
      expect(payloads(escrowId, 'DISPUTED')).toEqual([
        expect.objectContaining({ status: 'DISPUTED', reason: 'parcel never arrived', allocations: [{ merchantId: merchant.seller1, frozen: 600.5 }], escrow_status: 'DISPUTED' }),
      ]);
      expect(payloads(escrowId, 'DISPUTE_RESOLVED')).toEqual([expect.objectContaining({ allocations: [{ merchantId: merchant.seller1, release: 300, refund: 300.5 }] })]);
      expect(payloads(escrowId, 'REFUNDED')[0]).toMatchObject({ amount: 300.5, allocations: [{ merchantId: merchant.seller1, amount: 300.5 }] });
    });

    it('an open dispute past DISPUTE_MAX_DAYS is listed in the audit console until it is resolved', async () => {
      const escrowId = await heldEscrow();
      const order = (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.orderId;
      expect((await post(`/v1/trdp/escrow/${escrowId}/dispute`, { merchantId: merchant.courier1, reason: 'left at the wrong door' })).status).toBe(200);
      const auditor = new ConsoleClient(running.baseUrl);
      expect((await auditor.post('/audit/sign-in', { key: auditorKey }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
      const listed = await auditor.get('/audit/disputes');
      expect(listed.status).toBe(200);
      const row = listed.text.split('<tr>').find((r) => r.includes(order));
      expect(row).toContain(merchant.courier1);
      expect(row).toContain('left at the wrong door');
      expect(row).toContain('400.00');

      expect((await post(`/v1/trdp/escrow/${escrowId}/dispute/resolve`, { release: 400, refund: 0 })).status).toBe(200);
      expect((await auditor.get('/audit/disputes')).text).not.toContain(order);
    });

    it('a dispute of the whole escrow freezes every allocation that holds money; a resolution names each; retried under its Idempotency-Key, it opens once', async () => {
      const escrowId = await heldEscrow();
      expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.courier1 })).status).toBe(200);
      const key = { 'idempotency-key': `dispute-${escrowId}` };
      const first = await post(`/v1/trdp/escrow/${escrowId}/dispute`, { reason: 'wrong item' }, key);
      const again = await post(`/v1/trdp/escrow/${escrowId}/dispute`, { reason: 'wrong item' }, key);
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.body.data).toEqual(first.body.data);
      expect(first.body.data.allocations.map((a: { merchantId: string; status: string }) => [a.merchantId, a.status])).toEqual([
        [merchant.seller1, 'DISPUTED'],
        [merchant.courier1, 'RELEASED'],
      ]);
      expect(await eventsOf(escrowId, ['DisputeOpened'])).toEqual(['DisputeOpened']);
      const resolved = await post(`/v1/trdp/escrow/${escrowId}/dispute/resolve`, { allocations: [{ merchantId: merchant.seller1, release: 600.5, refund: 0 }] });
      expect(resolved.body.data.status).toBe('RELEASED');
      const unknown = await post(`/v1/trdp/escrow/${escrowId}/dispute/resolve`, { merchantId: merchant.seller1, release: 0, refund: 0 });
      expect([unknown.status, unknown.body.error.code]).toEqual([409, 'ALLOCATION_NOT_DISPUTED']);
    });
  });
});
