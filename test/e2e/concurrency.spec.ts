/**
 * Concurrent commands on one escrow over real HTTP on real PostgreSQL (docs/concepts/event-store-and-projections.md, docs/concepts/states.md): optimistic
 * concurrency on the event stream must keep every money invariant whatever the interleaving.
 */
import { type RunningApp, startApp, trackRequestsInFlight } from '../support/app';
import { createAccount, escrowRequest as escrowFixture, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call, type HttpResult } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * Requests without a callbackURL: callbacks have a suite of their own, and deliveries still in flight
 * would only slow this suite's shutdown.
 */
const escrowRequest = (overrides: Record<string, unknown> = {}) => escrowFixture({ callbackURL: undefined, ...overrides });

const ENV = { SANDBOX_DELAY_MS: '30', REFUND_RETRY_MS: '100' };

interface StoredEvent {
  event_type: string;
  data: any;
}

/** docs/concepts/states.md: where a paid escrow can end up, and what its allocations may then be. */
const ALLOCATIONS_BY_STATUS: Record<string, (statuses: string[]) => boolean> = {
  HELD: (s) => s.every((a) => a === 'HELD'),
  PARTIALLY_RELEASED: (s) => s.some((a) => a === 'RELEASED') && s.some((a) => a === 'HELD') && s.every((a) => a === 'RELEASED' || a === 'HELD'),
  RELEASED: (s) => s.every((a) => a === 'RELEASED'),
  REFUND_PENDING: (s) => s.some((a) => a === 'REFUND_PENDING') && s.every((a) => a === 'RELEASED' || a === 'REFUND_PENDING'),
  REFUNDED: (s) => s.every((a) => a === 'REFUNDED'),
  PARTIALLY_REFUNDED: (s) => s.some((a) => a === 'RELEASED') && s.some((a) => a === 'REFUNDED') && s.every((a) => a === 'RELEASED' || a === 'REFUNDED'),
};

describe('concurrent commands on one escrow', () => {
  let running: RunningApp;
  let requestsInFlight: () => number = () => 0;
  let merchant: TestMarketplace;

  beforeAll(async () => {
    running = await startApp({ env: ENV });
    requestsInFlight = trackRequestsInFlight(running.app);
    merchant = await registerMarketplace(running.baseUrl, 'Concurrent Market');
  });
  afterAll(async () => {
    if (!running) return;
    await waitFor(async () => requestsInFlight() === 0, 'the requests in flight to be answered');
    await running.close();
  });

  const post = (path: string, body: unknown): Promise<HttpResult> =>
    call(running.baseUrl, 'POST', path, { body, headers: { 'x-api-secret': merchant.apiSecret } });

  async function escrowEvents(escrowId: string): Promise<StoredEvent[]> {
    return running.schema!.client.query<StoredEvent>(
      `SELECT event_type, data FROM events WHERE stream_id = $1 ORDER BY stream_revision`,
      [`escrow-${escrowId}`],
    );
  }

  async function paidEscrow(overrides: Record<string, unknown> = {}): Promise<string> {
    const created = await post('/v1/trdp/escrow/order', escrowRequest(overrides));
    expect(created.status).toBe(201);
    const escrowId = created.body.data.escrowId;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await post('/v1/trdp/verify', { orderId: escrowId })).body.data.escrow_status === 'HELD', 'the escrow to be paid');
    return escrowId;
  }

  it('lets exactly one of two simultaneous releases of one allocation through', async () => {
    const escrowId = await paidEscrow();
    const release = () => post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1 });
    const results = await Promise.all([release(), release()]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(['ALLOCATION_ALREADY_RELEASED', 'CONCURRENT_MODIFICATION']).toContain(refused.body.error.code);
    const released = (await escrowEvents(escrowId)).filter((e) => e.event_type === 'AllocationReleased');
    expect(released).toHaveLength(1);
    expect(released[0].data).toMatchObject({ merchantId: merchant.seller1, amount: 60050 });
  });

  it('releases every part that fits when twenty partial releases of one allocation arrive at once', async () => {
    // 14 parts of 42 ETB fit in seller-1's 600.50; the 15th would not. Each round is a fresh escrow:
    // the answers a lost race used to give (CONCURRENT_MODIFICATION to a part that fitted) come and go.
    for (let round = 0; round < 5; round++) {
      const escrowId = await paidEscrow();
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1, amount: 42 })));
      const outcomes = answers.map((a) => (a.status === 200 ? 'released' : `${a.status} ${a.body.error?.code}`));
      expect({ round, released: outcomes.filter((o) => o === 'released').length, refused: outcomes.filter((o) => o !== 'released').sort() }).toEqual({
        round,
        released: 14,
        refused: Array(6).fill('409 AMOUNT_EXCEEDS_HELD'),
      });
      const released = (await escrowEvents(escrowId)).filter((e) => e.event_type === 'AllocationReleased');
      expect(released.map((e) => e.data.amount)).toEqual(Array(14).fill(4200));
    }
  });

  it('keeps a stream of more than ten events writable and in order', async () => {
    const escrowId = await paidEscrow();
    // Each refused second payment adds two events (and its refund completion a third).
    for (let i = 0; i < 6; i++) {
      const res = await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
      expect(res.status).toBe(200);
    }
    const release = await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1 });
    expect(release.status).toBe(200);
    expect(release.body.data.status).toBe('PARTIALLY_RELEASED');
    const rows = await running.schema!.client.query<{ stream_revision: string; event_type: string }>(
      `SELECT stream_revision::text AS stream_revision, event_type FROM events WHERE stream_id = $1 ORDER BY events.stream_revision`,
      [`escrow-${escrowId}`],
    );
    expect(rows.length).toBeGreaterThan(14);
    expect(rows.map((r) => Number(r.stream_revision))).toEqual(rows.map((_, i) => i));
    expect(rows.filter((r) => r.event_type === 'EscrowPaymentRefused')).toHaveLength(6);
    expect(rows.filter((r) => r.event_type === 'AllocationReleased')).toHaveLength(1);
  });

  it('keeps every invariant under 50 concurrent mixed commands', async () => {
    const allocations = [
      { merchantId: merchant.seller1, amount: 500 },
      { merchantId: await createAccount(running.baseUrl, merchant, 'seller-2'), amount: 300.5 },
      { merchantId: merchant.courier1, amount: 200 },
    ];
    const escrowId = await paidEscrow({ allocations });
    const [funded] = (await escrowEvents(escrowId)).filter((e) => e.event_type === 'EscrowFunded');
    const escrowAmount = 100050;

    type Kind = 'release' | 'cancel' | 'verify' | 'complete';
    const commands: { kind: Kind; send: () => Promise<HttpResult> }[] = [];
    for (let i = 0; i < 50; i++) {
      const slot = i % 10;
      if (slot < 6) {
        const merchantId = allocations[i % 3].merchantId;
        commands.push({ kind: 'release', send: () => post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId }) });
      } else if (slot === 6) {
        commands.push({ kind: 'cancel', send: () => post(`/v1/trdp/escrow/${escrowId}/cancel`, { reason: `cancel ${i}` }) });
      } else if (slot === 7) {
        commands.push({ kind: 'verify', send: () => post('/v1/trdp/verify', { orderId: escrowId }) });
      } else {
        const outcome = slot === 8 ? 'PAID' : 'FAILED';
        commands.push({ kind: 'complete', send: () => post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome }) });
      }
    }
    const results = await Promise.all(commands.map((c) => c.send()));

    const unexpected = results
      .map((r, i) => ({ kind: commands[i].kind, status: r.status, code: r.body?.error?.code }))
      .filter((r) => r.status !== 200 && r.status !== 409);
    expect(unexpected).toEqual([]);
    // Only commands that change the escrow may be refused; reads and provider reports always answer.
    for (const [i, r] of results.entries()) {
      if (commands[i].kind === 'verify' || commands[i].kind === 'complete') expect({ kind: commands[i].kind, status: r.status }).toEqual({ kind: commands[i].kind, status: 200 });
    }

    // Let the refunds (of a cancel, of refused second payments) settle before judging the end state.
    const events = await waitFor(async () => {
      const all = await escrowEvents(escrowId);
      const requested = all.filter((e) => e.event_type === 'EscrowRefundRequested').length;
      const completed = all.filter((e) => e.event_type === 'EscrowRefundCompleted').length;
      return requested === completed && all;
    }, 'every refund to be completed');

    const escrow = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: { 'x-api-secret': merchant.apiSecret } });
    expect(escrow.status).toBe(200);
    const status: string = escrow.body.data.status;
    const allocationStatuses: string[] = escrow.body.data.allocations.map((a: { status: string }) => a.status);
    expect(Object.keys(ALLOCATIONS_BY_STATUS)).toContain(status);
    expect({ status, allocationStatuses, consistent: ALLOCATIONS_BY_STATUS[status](allocationStatuses) }).toMatchObject({ consistent: true });

    // At most one release per allocation, and as many as successful release responses.
    const released = events.filter((e) => e.event_type === 'AllocationReleased');
    const releasedIds = released.map((e) => e.data.merchantId as string);
    expect(new Set(releasedIds).size).toBe(releasedIds.length);
    const okReleases = results.filter((r, i) => commands[i].kind === 'release' && r.status === 200).length;
    expect(released).toHaveLength(okReleases);
    for (const e of released) {
      const terms = allocations.find((a) => a.merchantId === e.data.merchantId)!;
      expect(e.data.amount).toBe(Math.round(terms.amount * 100));
    }

    // At most one cancel, and it succeeded exactly when it was recorded.
    const cancels = events.filter((e) => e.event_type === 'EscrowCancelled');
    expect(cancels.length).toBeLessThanOrEqual(1);
    expect(results.filter((r, i) => commands[i].kind === 'cancel' && r.status === 200)).toHaveLength(cancels.length);

    // The escrow's own money: released plus refunded never exceeds what was paid, and no allocation
    // is both released and refunded. (A refused second payment is refunded from its own money.)
    const requested = events.filter((e) => e.event_type === 'EscrowRefundRequested');
    const escrowRefunds = requested.filter((e) => e.data.paymentReferenceId === funded.data.externalReferenceId);
    const releasedSantim = released.reduce((sum, e) => sum + (e.data.amount as number), 0);
    const refundedSantim = escrowRefunds.reduce((sum, e) => sum + (e.data.amount as number), 0);
    expect(releasedSantim + refundedSantim).toBeLessThanOrEqual(escrowAmount);
    if (cancels.length === 1) expect(releasedSantim + refundedSantim).toBe(escrowAmount);
    const refundedIds = escrowRefunds.flatMap((e) => e.data.merchantIds as string[]);
    expect(new Set(refundedIds).size).toBe(refundedIds.length);
    expect(refundedIds.filter((id) => releasedIds.includes(id))).toEqual([]);
    expect([...releasedIds, ...refundedIds].sort()).toEqual(
      cancels.length === 1 ? allocations.map((a) => a.merchantId).sort() : [...releasedIds].sort(),
    );

    // Every refused second payment is refunded in full, once.
    const refusedPayments = events.filter((e) => e.event_type === 'EscrowPaymentRefused');
    const refusedRefunds = requested.filter((e) => e.data.reason === 'PAYMENT_REFUSED');
    expect(refusedRefunds.map((e) => e.data.paymentReferenceId).sort()).toEqual(refusedPayments.map((e) => e.data.externalReferenceId).sort());
    for (const e of refusedRefunds) expect(e.data).toMatchObject({ amount: escrowAmount, merchantIds: [] });
    expect(events.filter((e) => e.event_type === 'EscrowFunded')).toHaveLength(1);
    expect(events.filter((e) => e.event_type === 'EscrowPaymentFailed')).toHaveLength(0);
  });
});
