import { deliveryIdFor } from '@app/callbacks';
import {
  checkAccounts,
  checkAnswered,
  checkCallbacks,
  checkIntegrity,
  checkLedger,
  checkOpenWork,
  checkPayoutAvailability,
  checkPayouts,
  checkReadiness,
  checkRecoveryLatency,
  checkReversals,
  checkSecrets,
  checkSettlement,
  checkWorkRetries,
  checkWrites,
  p99,
} from './checks';

/** The sandbox's phones that answer a push (an order of +251900000002 never does). */
const ANSWERING = new Set(['+251900000000', '+251900000001', '+251900000009']);
import type { Attempt, EscrowSnapshot, LedgerSnapshot, LoggedEvent, Operation, OutageWindow, ReadinessSample, ReceivedCallback } from './records';

const ok = (requestId: string, body: unknown, status = 201) => ({ requestId, status, responseText: JSON.stringify({ data: body }) });

function event(type: string, streamId: string, correlationId: string | undefined, data: Record<string, unknown> = {}, actor = 'merchant'): LoggedEvent {
  return { id: `${type}-${streamId}-${correlationId}`, position: '1', streamId, revision: '0', type, data, metadata: { correlationId, actor: { type: actor } } };
}

/** A run in which everything went right: a merchant, a paid order with its callback, a read and a refused write. */
function healthyRun() {
  const operations: Operation[] = [
    { id: 'op-1', kind: 'register-merchant', method: 'POST', path: '/v1/admin/merchants', attempts: [ok('r-1', { merchantId: 'm-1', apiSecret: 'sk_secret_1' })] },
    { id: 'op-2', kind: 'create-order', method: 'POST', path: '/v1/trdp/order', attempts: [{ requestId: 'r-2a' }, ok('r-2b', { order_id: 'ord_1' })] },
    { id: 'op-3', kind: 'read', method: 'POST', path: '/v1/trdp/verify', attempts: [ok('r-3', { status: 'PAID' }, 200)] },
    { id: 'op-4', kind: 'create-escrow', method: 'POST', path: '/v1/trdp/escrow/order', attempts: [{ requestId: 'r-4', status: 400, responseText: '{}' }] },
  ];
  const paid = event('OrderPaid', 'order-ord_1', 'ntf-1', {}, 'provider');
  const events: LoggedEvent[] = [
    event('MerchantRegistered', 'merchant-m-1', 'r-1'),
    event('OrderCreated', 'order-ord_1', 'r-2a', { callbackUrl: 'http://127.0.0.1/callbacks/m-1' }),
    paid,
    event('CallbackScheduled', `callback-${deliveryIdFor(paid.id)}`, 'ntf-1', {}, 'system'),
  ];
  const body = JSON.stringify({ status: 'PAID', deliveryId: deliveryIdFor(paid.id) });
  const received: ReceivedCallback[] = [
    { path: '/callbacks/m-1', deliveryId: deliveryIdFor(paid.id), body, signatureValid: true, answer: 'error', receivedAt: 0 },
    { path: '/callbacks/m-1', deliveryId: deliveryIdFor(paid.id), body, signatureValid: true, answer: 'ok', receivedAt: 0 },
  ];
  return { operations, events, received, paid };
}

describe('the chaos run checks', () => {
  describe('writes', () => {
    it('passes a run whose writes are all in the log once, with an unknown-outcome attempt retried', () => {
      const { operations, events } = healthyRun();
      expect(checkWrites(operations, events)).toMatchObject({ ok: true, problems: [] });
    });

    it('fails on an event appended by a refused request', () => {
      const { operations, events } = healthyRun();
      const check = checkWrites(operations, [...events, event('EscrowCreated', 'escrow-esc_1', 'r-4')]);
      expect(check.ok).toBe(false);
      expect(check.problems).toEqual([expect.stringContaining('phantom: EscrowCreated')]);
    });

    it('fails on an event that belongs to no request and is no follow-up work', () => {
      const { operations, events } = healthyRun();
      expect(checkWrites(operations, [...events, event('OrderCreated', 'order-ord_9', 'someone-else')]).problems).toEqual([
        expect.stringContaining('belongs to no request'),
      ]);
    });

    it('fails on an event written by a read', () => {
      const { operations, events } = healthyRun();
      expect(checkWrites(operations, [...events, event('OrderExpired', 'order-ord_1', 'r-3')]).ok).toBe(false);
    });

    it('fails when a write answered 201 but its event is not in the log', () => {
      const { operations, events } = healthyRun();
      const check = checkWrites(operations, events.filter((e) => e.type !== 'OrderCreated'));
      expect(check.problems).toEqual([expect.stringContaining('lost: POST /v1/trdp/order')]);
    });

    it('fails when a retried write took effect twice', () => {
      const { operations, events } = healthyRun();
      const check = checkWrites(operations, [...events, event('OrderCreated', 'order-ord_2', 'r-2b')]);
      expect(check.problems).toEqual([expect.stringContaining('duplicate: POST /v1/trdp/order')]);
    });

    it('fails on more checkout payment attempts than pay requests', () => {
      const { operations, events } = healthyRun();
      const check = checkWrites(operations, [...events, event('OrderPaymentInitiated', 'order-ord_1', undefined, {}, 'system')]);
      expect(check.problems).toEqual([expect.stringContaining('payment attempts for 0 pay requests')]);
    });
  });

  describe('answers', () => {
    const inUse = { status: 409, responseText: JSON.stringify({ error: { code: 'IDEMPOTENCY_KEY_IN_USE' } }) };

    it('passes writes answered in the end, after attempts without an answer, with a 5xx or with the key still in use', () => {
      const { operations } = healthyRun();
      const retried: Operation = {
        id: 'op-5',
        kind: 'release',
        method: 'POST',
        path: '/v1/trdp/escrow/esc_1/release',
        attempts: [{ requestId: 'r-5a' }, { requestId: 'r-5b', status: 503 }, { requestId: 'r-5c', ...inUse }, ok('r-5d', {}, 200)],
      };
      expect(checkAnswered([...operations, retried])).toMatchObject({ ok: true, problems: [] });
    });

    it('fails a request whose retries all found the key in use, or all failed', () => {
      const stuck: Operation = {
        id: 'op-6',
        kind: 'release',
        method: 'POST',
        path: '/v1/trdp/escrow/esc_1/release',
        idempotencyKey: 'idem-6',
        attempts: [
          { requestId: 'r-6a', sentAt: 1000, ms: 20, error: 'TypeError: other side closed' },
          { requestId: 'r-6b', sentAt: 1200, ms: 10_000, ...inUse },
          { requestId: 'r-6c', sentAt: 11_500, ms: 10_000, ...inUse },
        ],
      };
      const failing: Operation = { id: 'op-7', kind: 'read', method: 'POST', path: '/v1/trdp/verify', attempts: [{ requestId: 'r-7', status: 500, responseText: '{}' }] };
      expect(checkAnswered([stuck, failing]).problems).toEqual([
        'unanswered: POST /v1/trdp/escrow/esc_1/release (idem-6) after 3 attempts over 20.5 s: none, 409 IDEMPOTENCY_KEY_IN_USE (10.0 s), 409 IDEMPOTENCY_KEY_IN_USE (10.0 s)',
        'unanswered: POST /v1/trdp/verify (op-7) after 1 attempts: 500',
      ]);
    });
  });

  describe('ledger', () => {
    /** An allocation's money follows its status unless given: `[amount, status, held, released]`. */
    const escrow = (status: string, ...allocations: ([number, string] | [number, string, number, number])[]): EscrowSnapshot => ({
      escrowId: 'esc_1',
      status,
      allocations: allocations.map(([amount, allocationStatus, held, released], i) => {
        const all = (statuses: string[]) => (statuses.includes(allocationStatus) ? amount : 0);
        return {
          merchantId: `s-${i}`,
          amount,
          status: allocationStatus,
          held: held ?? all(['HELD']),
          released: released ?? all(['RELEASED']),
          refunded: held === undefined ? all(['REFUND_PENDING', 'REFUNDED']) : 0,
        };
      }),
    });
    const ledger = (escrowBalance: number, credits = 150.5): LedgerSnapshot => ({
      modes: ['live'],
      balanced: credits === 150.5,
      totalDebits: 150.5,
      totalCredits: credits,
      accounts: [
        { account: 'provider:clearing', debit: 150.5, credit: 0, balance: 150.5 },
        { account: 'escrow:esc_1', debit: 150.5 - escrowBalance, credit: 150.5, balance: escrowBalance },
        { account: 'merchant:s-0:payable', debit: 0, credit: credits - escrowBalance, balance: credits - escrowBalance },
      ],
    });

    it('passes a balanced ledger whose escrow holds exactly its held allocations', () => {
      expect(checkLedger(ledger(50.25), [escrow('PARTIALLY_RELEASED', [100.25, 'RELEASED'], [50.25, 'HELD'])]).ok).toBe(true);
      expect(checkLedger(ledger(0), [escrow('RELEASED', [100.25, 'RELEASED'], [50.25, 'RELEASED'])]).ok).toBe(true);
      expect(checkLedger(ledger(50.25), [escrow('PARTIALLY_RELEASED', [100.25, 'RELEASED'], [70.25, 'PARTIALLY_RELEASED', 50.25, 20])]).ok).toBe(true);
      // Never paid: nothing to account for.
      expect(checkLedger(ledger(50.25), [escrow('PARTIALLY_RELEASED', [100.25, 'RELEASED'], [50.25, 'HELD']), { ...escrow('EXPIRED', [10, 'VOID']), escrowId: 'esc_2' }]).ok).toBe(true);
    });

    it('fails an allocation whose held, released and refunded amounts do not add up to it', () => {
      expect(checkLedger(ledger(50.25), [escrow('PARTIALLY_RELEASED', [100.25, 'RELEASED'], [70.25, 'PARTIALLY_RELEASED', 50.25, 19.99])]).problems).toEqual([
        'escrow esc_1 allocation s-1: amount 7025 santim, held + released + refunded + frozen 7024',
      ]);
    });

    it('fails an unbalanced trial balance', () => {
      expect(checkLedger(ledger(0, 150.51), [escrow('RELEASED', [100.25, 'RELEASED'], [50.25, 'RELEASED'])]).problems).toEqual([
        expect.stringContaining('trial balance'),
      ]);
    });

    it('fails an escrow account that differs from its held allocations, and a closed escrow that still holds money', () => {
      expect(checkLedger(ledger(50.25), [escrow('HELD', [100.25, 'HELD'], [50.25, 'HELD'])]).ok).toBe(false);
      const closed = checkLedger(ledger(50.25), [escrow('PARTIALLY_REFUNDED', [100.25, 'RELEASED'], [50.25, 'REFUNDED'])]);
      expect(closed.problems).toEqual([expect.stringContaining('held and frozen allocations 0'), expect.stringContaining('is PARTIALLY_REFUNDED but its account holds 5025')]);
    });

    it('counts frozen money in the allocation and the escrow account, and fails a fee earned beyond the fee or what was released', () => {
      const disputed = escrow('DISPUTED', [100.25, 'RELEASED'], [50.25, 'DISPUTED', 0, 0]);
      disputed.allocations[1].frozen = 50.25;
      expect(checkLedger(ledger(50.25), [disputed]).ok).toBe(true);
      const greedy = escrow('PARTIALLY_RELEASED', [100.25, 'RELEASED'], [50.25, 'HELD']);
      greedy.allocations[0] = { ...greedy.allocations[0], fee: 10, feeEarned: 10.01 };
      expect(checkLedger(ledger(50.25), [greedy]).problems).toEqual([expect.stringContaining('fee earned 1001 santim of a fee of 1000')]);
    });
  });

  describe('callbacks', () => {
    it('passes when every callback was delivered with an unchanged payload after a failed attempt', () => {
      const { events, received } = healthyRun();
      expect(checkCallbacks(events, received)).toMatchObject({ ok: true });
    });

    it('fails when a redelivery carried another payload', () => {
      const { events, received, paid } = healthyRun();
      const changed = { ...received[1], body: JSON.stringify({ status: 'PAID', deliveryId: deliveryIdFor(paid.id), amount: 1 }) };
      expect(checkCallbacks(events, [received[0], changed]).problems).toEqual([expect.stringContaining('changed payload')]);
    });

    it('fails when a callback was never answered 200, or arrived with a bad signature', () => {
      const { events, received } = healthyRun();
      expect(checkCallbacks(events, [received[0]]).problems).toEqual([expect.stringContaining('undelivered: OrderPaid')]);
      expect(checkCallbacks(events, [...received, { ...received[1], signatureValid: false }]).problems).toEqual([expect.stringContaining('bad signature')]);
    });

    it('fails on a callback no event asked for', () => {
      const { events, received } = healthyRun();
      const stray = { ...received[1], deliveryId: 'dlv_stray', body: '{"deliveryId":"dlv_stray"}' };
      expect(checkCallbacks(events, [...received, stray]).problems).toEqual([expect.stringContaining('phantom callback: dlv_stray')]);
    });

    it('expects a payout callback while the payout settings name a callback URL, and none once they no longer do', () => {
      const { events, received } = healthyRun();
      const settings = (callbackUrl: string | null) => event('PayoutSettingsChanged', 'payouts-m-1', 'r-9', { settings: { callbackUrl } });
      const paid = event('PayoutPaid', 'payout-po_1', 'w-1', { merchantId: 'm-1', payoutId: 'po_1' }, 'system');
      const callback = { path: '/callbacks/m-1', deliveryId: deliveryIdFor(paid.id), body: JSON.stringify({ status: 'PAYOUT_PAID', deliveryId: deliveryIdFor(paid.id) }), signatureValid: true, answer: 'ok' as const, receivedAt: 0 };
      expect(checkCallbacks([...events, settings('http://127.0.0.1/callbacks/m-1'), paid], received).problems).toEqual([expect.stringContaining('undelivered: PayoutPaid')]);
      expect(checkCallbacks([...events, settings('http://127.0.0.1/callbacks/m-1'), paid], [...received, callback]).ok).toBe(true);
      expect(checkCallbacks([...events, settings('http://127.0.0.1/callbacks/m-1'), settings(null), paid], [...received, callback]).problems).toEqual([
        expect.stringContaining(`phantom callback: ${deliveryIdFor(paid.id)}`),
      ]);
    });

    it('reads the payout callback URL from the settings in their own stream, for a payout of the payout account stream too', () => {
      const { events, received } = healthyRun();
      const settings = event('PayoutSettingsChanged', 'payout-settings-m-1', 'r-9', { settings: { callbackUrl: 'http://127.0.0.1/callbacks/m-1' } });
      const paid = event('PayoutPaid', 'payouts-m-1', 'w-1', { merchantId: 'm-1', payoutId: 'po_1' }, 'system');
      const callback = { path: '/callbacks/m-1', deliveryId: deliveryIdFor(paid.id), body: JSON.stringify({ status: 'PAYOUT_PAID', deliveryId: deliveryIdFor(paid.id) }), signatureValid: true, answer: 'ok' as const, receivedAt: 0 };
      expect(checkCallbacks([...events, settings, paid], [...received, callback]).ok).toBe(true);
      expect(checkCallbacks([...events, settings, paid], received).problems).toEqual([expect.stringContaining('undelivered: PayoutPaid')]);
    });
  });

  it('fails a broken hash chain', () => {
    expect(checkIntegrity({ ok: true, streamsChecked: 2, eventsChecked: 4, firstBreak: null }).ok).toBe(true);
    expect(checkIntegrity({ ok: false, streamsChecked: 2, eventsChecked: 4, firstBreak: { streamId: 'order-1', revision: '1' } }).ok).toBe(false);
  });

  describe('secrets', () => {
    const secrets = [{ name: 'API secret of m-1', value: 'sk_secret_1', issuedBy: 'op-1' }];

    it('allows a secret only in the response that issued it', () => {
      const responses = [{ name: 'POST /v1/admin/merchants', operationId: 'op-1', text: '{"apiSecret":"sk_secret_1"}' }];
      expect(checkSecrets(secrets, responses, [{ name: 'the log of api-1', text: '{"x-api-secret":"[Redacted]"}' }]).ok).toBe(true);
    });

    it('fails a secret leaked into a log, the event log or another response', () => {
      const leakedLog = checkSecrets(secrets, [], [{ name: 'the log of worker-1', text: 'headers: {"x-api-secret":"sk_secret_1"}' }]);
      expect(leakedLog.problems).toEqual(['API secret of m-1 in the log of worker-1']);
      const leakedResponse = checkSecrets(secrets, [{ name: 'GET /v1/audit/events', operationId: 'op-7', text: '"sk_secret_1"' }], []);
      expect(leakedResponse.ok).toBe(false);
    });
  });

  describe('open work', () => {
    const at = Date.parse('2026-01-01T12:00:00Z');
    const created = (streamId: string, phone: string, expiresAt = '2026-01-01T12:30:00Z') =>
      event(streamId.startsWith('order') ? 'OrderCreated' : 'EscrowCreated', streamId, 'r-c', { customer: { phone }, expiresAt });
    const initiated = (streamId: string, attemptId: string) =>
      event(streamId.startsWith('order') ? 'OrderPaymentInitiated' : 'EscrowPaymentInitiated', streamId, undefined, { attemptId, initiatedAt: '2026-01-01T11:59:00Z' }, 'system');
    const refund = (type: string, refundId: string) => event(type, 'escrow-esc_1', undefined, { refundId, reason: 'CANCELLED', requestedAt: '2026-01-01T11:59:30Z' }, 'provider');

    /** A paid order, an escrow paid then cancelled and refunded, an escrow whose customer never answered and which expired, an order still open. */
    function settledLog(): LoggedEvent[] {
      return [
        created('order-ord_1', '+251900000000'),
        initiated('order-ord_1', 'att_1'),
        event('OrderPaid', 'order-ord_1', undefined, {}, 'provider'),
        created('escrow-esc_1', '+251900000000'),
        event('EscrowFunded', 'escrow-esc_1', undefined, {}, 'provider'),
        event('EscrowCancelled', 'escrow-esc_1', 'r-x'),
        refund('EscrowRefundRequested', 'esc_1-refund-1'),
        refund('EscrowRefundCompleted', 'esc_1-refund-1'),
        created('escrow-esc_2', '+251900000002', '2026-01-01T11:59:50Z'),
        initiated('escrow-esc_2', 'att_2'),
        event('EscrowExpired', 'escrow-esc_2', undefined, {}, 'system'),
        created('order-ord_3', '+251900000002'),
        initiated('order-ord_3', 'att_3'),
      ];
    }

    it('passes a log in which every attempt has an outcome, every refund completed and every pending order expires later', () => {
      expect(checkOpenWork(settledLog(), at, ANSWERING)).toMatchObject({ ok: true, problems: [] });
    });

    it('fails on a payment attempt of a phone that answers with no outcome, naming it', () => {
      const log = [...settledLog(), created('order-ord_4', '+251900000001'), initiated('order-ord_4', 'att_4')];
      expect(checkOpenWork(log, at, ANSWERING).problems).toEqual([expect.stringMatching(/^payment: att_4 of order-ord_4 .*has no outcome/)]);
    });

    it('fails on a refund requested and never completed, naming it', () => {
      const log = settledLog().filter((e) => e.type !== 'EscrowRefundCompleted');
      expect(checkOpenWork(log, at, ANSWERING).problems).toEqual([expect.stringMatching(/^refund: esc_1-refund-1 of escrow-esc_1 \(CANCELLED/)]);
    });

    it('fails on an order still PENDING past its expiresAt', () => {
      const log = [...settledLog(), created('order-ord_5', '+251900000000', '2026-01-01T11:58:00Z')];
      expect(checkOpenWork(log, at, ANSWERING).problems).toEqual([expect.stringMatching(/^expiry: order-ord_5 is still PENDING 120.0 s after/)]);
    });
  });

  describe('payouts', () => {
    const requested = (payoutId: string, settles: { eventId: string; amount: number }[], amount = settles.reduce((t, m) => t + m.amount, 0)) =>
      event('PayoutRequested', 'payouts-m-1', 'r-1', { payoutId, amount, settles });
    const ended = (type: 'PayoutPaid' | 'PayoutFailed', payoutId: string) => event(type, 'payouts-m-1', undefined, { payoutId }, 'system');
    /** The reports the merchant API would give for these payouts: a line per movement, in ETB. */
    const reportsOf = (log: LoggedEvent[]) =>
      log
        .filter((e) => e.type === 'PayoutRequested')
        .map((e) => ({ payoutId: e.data.payoutId, amount: e.data.amount / 100, linesPaid: e.data.settles.map((m: { amount: number }) => m.amount / 100) }));

    it('passes payouts that each ended once, sum to their movements, and a failed one paid out again', () => {
      const log = [requested('p1', [{ eventId: 'e1', amount: 100 }]), ended('PayoutFailed', 'p1'), requested('p2', [{ eventId: 'e1', amount: 100 }, { eventId: 'e2', amount: -30 }]), ended('PayoutPaid', 'p2')];
      expect(checkPayouts(log, reportsOf(log))).toMatchObject({ ok: true, problems: [] });
    });

    it('fails on a movement paid out twice, a payout that never ended or ended twice, and one that does not sum', () => {
      const log = [
        requested('p1', [{ eventId: 'e1', amount: 100 }]),
        ended('PayoutPaid', 'p1'),
        requested('p2', [{ eventId: 'e1', amount: 100 }]),
        ended('PayoutPaid', 'p2'),
        ended('PayoutPaid', 'p2'),
        requested('p3', [{ eventId: 'e3', amount: 50 }], 60),
      ];
      expect(checkPayouts(log, reportsOf(log)).problems).toEqual([
        'payout p2 of payouts-m-1 ended 2 times (PayoutPaid, PayoutPaid)',
        'movement e1 is in payouts p1 and p2',
        'payout p3 of payouts-m-1 ended 0 times (never)',
        'payout p3 is 60 santim but its movements sum to 50',
        'payout p3 of 60 santim: its report says 60, with 1 lines of 1 paying 50',
      ]);
    });

    it("passes a merchant's payouts of their own streams whose ranges follow one another and whose reports net to them", () => {
      const ranged = (payoutId: string, after: string | null, through: string, amount: number) => event('PayoutRequested', `payout-${payoutId}`, 'r-1', { merchantId: 'm-1', payoutId, amount, after, through });
      const log = [ranged('p1', null, '5-1', 100), ended('PayoutFailed', 'p1'), ranged('p2', '5-1', '9-2', 130), ended('PayoutPaid', 'p2')];
      const reports = [
        { payoutId: 'p1', amount: 1, linesPaid: [0.6, 0.4] },
        { payoutId: 'p2', amount: 1.3, linesPaid: [0.3, 1] },
      ];
      expect(checkPayouts(log, reports)).toMatchObject({ ok: true, problems: [] });
      const overlapping = [...log, ranged('p3', '5-1', '12-0', 20), ended('PayoutPaid', 'p3')];
      expect(checkPayouts(overlapping, [...reports, { payoutId: 'p3', amount: 0.2, linesPaid: [0.1] }]).problems).toEqual([
        'payout p3 settles from 5-1, but p2 before it settled up to 9-2',
        'payout p3 of 20 santim: its report says 20, its lines paying 10',
      ]);
    });

    it('fails a payout whose report is missing, leaves a movement out or whose lines pay another amount', () => {
      const log = [
        requested('p1', [{ eventId: 'e1', amount: 100 }, { eventId: 'e2', amount: 25 }]),
        ended('PayoutPaid', 'p1'),
        requested('p2', [{ eventId: 'e3', amount: 40 }]),
        ended('PayoutPaid', 'p2'),
      ];
      const [first] = reportsOf(log);
      expect(checkPayouts(log, [{ ...first, linesPaid: [1] }]).problems).toEqual([
        'payout p1 of 125 santim: its report says 125, with 1 lines of 2 paying 100',
        'payout p2 has no report',
      ]);
    });
  });

  describe('readiness', () => {
    const outage: OutageWindow = { startedAt: 10_000, refusedUntil: 20_000, endedAt: 20_010 };
    const apis = ['http://127.0.0.1:1', 'http://127.0.0.1:2'];
    const sample = (api: string, sentAt: number, status?: number): ReadinessSample => ({ api, sentAt, answeredAt: sentAt + 20, status });
    /** Both APIs answer 503 every second of the outage and 200 from 1.5 s after it. */
    const healthy = () => apis.flatMap((api) => [...[10_100, 11_100, 12_100].map((t) => sample(api, t, 503)), sample(api, 20_100, 503), sample(api, 21_500, 200)]);

    it('passes 503s during the outage and 200 soon after', () => {
      expect(checkReadiness(healthy(), apis, outage)).toMatchObject({ ok: true, problems: [] });
    });

    it('fails a 200 while PostgreSQL refused connections', () => {
      expect(checkReadiness([...healthy(), sample(apis[1], 15_000, 200)], apis, outage).problems).toEqual([
        expect.stringMatching(/^http:\/\/127.0.0.1:2 answered ready \(200\) 5.0 s into the outage/),
      ]);
    });

    it('fails an API that answered during the outage but never 503', () => {
      const samples = [...healthy().filter((s) => s.api !== apis[0] || s.status === 200), sample(apis[0], 12_000, 500)];
      expect(checkReadiness(samples, apis, outage).problems).toEqual([expect.stringContaining('never 503 (500)')]);
    });

    it('fails an API not ready again within 30 s after the outage', () => {
      const samples = [...healthy().filter((s) => s.api !== apis[1] || s.status !== 200), sample(apis[1], 55_000, 200)];
      expect(checkReadiness(samples, apis, outage).problems).toEqual([expect.stringContaining('http://127.0.0.1:2 did not answer ready (200) within 30.0 s')]);
    });

    it('asks no 503 of an API that was down during the outage', () => {
      const samples = [...healthy().filter((s) => s.api !== apis[0] || s.status === 200), sample(apis[0], 11_000)];
      expect(checkReadiness(samples, apis, outage).ok).toBe(true);
    });

    it('fails a run without an outage', () => {
      expect(checkReadiness([], apis, undefined).ok).toBe(false);
    });
  });

  describe('recovery latency', () => {
    const outage: OutageWindow = { startedAt: 100_000, refusedUntil: 110_000, endedAt: 110_000 };
    /** One client request every 50 ms from `from` to `to`, each taking `ms`. */
    const requests = (from: number, to: number, ms: (t: number) => number): Attempt[] =>
      Array.from({ length: (to - from) / 50 }, (_, i) => from + i * 50).map((t) => ({ requestId: `r-${t}`, status: 200, sentAt: t, ms: ms(t) }));
    const run = (...attempts: Attempt[][]): Operation[] => [{ id: 'op', kind: 'read', method: 'GET', path: '/', attempts: attempts.flat() }];
    // The baseline: 10 ms, with one request in fifty at 40 ms (its p99 is 40 ms).
    const before = requests(50_000, 100_000, (t) => (t % 2500 === 0 ? 40 : 10));

    it('passes when a window after the outage is back within twice the baseline p99, and reports the figures', () => {
      const after = requests(110_000, 140_000, (t) => (t < 118_000 ? 900 : 60));
      const check = checkRecoveryLatency(run(before, after), 0, outage);
      expect(check).toMatchObject({ ok: true, problems: [] });
      expect(check.summary).toContain('baseline p99 40 ms over 600 requests');
      expect(check.summary).toContain('first window at or under 80 ms: +8–13 s after, p99 60 ms');
    });

    it('fails when no window within 30 s after the outage comes back', () => {
      const check = checkRecoveryLatency(run(before, requests(110_000, 140_000, () => 300)), 0, outage);
      expect(check.problems).toEqual([expect.stringContaining('had a p99 at or under 80 ms (2× the baseline 40 ms); the best, +0–5 s, had 300 ms')]);
    });

    it('counts only successful responses, and the baseline only from the start of the load', () => {
      const failed = requests(110_000, 140_000, () => 5).map((a) => ({ ...a, status: 503 }));
      expect(checkRecoveryLatency(run(before, failed), 0, outage).problems).toEqual([expect.stringContaining('had 20 successful requests')]);
      expect(checkRecoveryLatency(run(before), 99_900, outage).problems).toEqual([expect.stringContaining('no baseline')]);
    });

    it('takes the nearest-rank p99', () => {
      expect(p99(Array.from({ length: 100 }, (_, i) => i + 1))).toBe(99);
      expect(p99([5])).toBe(5);
      expect(p99([])).toBeUndefined();
    });
  });
  describe('settlement', () => {
    /**
     * m-1's order of 100.00 ETB paid with a 5.00 fee and paid out; 50.00 ETB released to m-2, whose payout
     * failed; 10.00 of a second m-1 order refunded; 20.00 moved from m-1 to acct_1, 5.00 of it back; 30.00 of
     * acct_2's release taken back with 3.00 of m-1's fee.
     */
    function settled(): LoggedEvent[] {
      return [
        event('OrderCreated', 'order-ord_1', 'r-1', { merchantId: 'm-1', fee: 500 }),
        event('OrderPaid', 'order-ord_1', 'n-1', { amount: 10_000 }, 'provider'),
        event('OrderCreated', 'order-ord_2', 'r-2', { merchantId: 'm-1' }),
        event('OrderPaid', 'order-ord_2', 'n-2', { amount: 2_000 }, 'provider'),
        event('OrderRefundRequested', 'order-ord_2', 'r-3', { amount: 1_000, reason: 'REQUESTED' }),
        event('EscrowCreated', 'escrow-esc_1', 'r-4', { merchantId: 'm-1' }),
        event('AllocationReleased', 'escrow-esc_1', 'r-5', { merchantId: 'm-2', amount: 5_000 }),
        event('AllocationReleased', 'escrow-esc_1', 'r-6', { merchantId: 'acct_2', amount: 4_000, fee: 400 }),
        event('EscrowRefundRequested', 'escrow-esc_1', 'r-7', { merchantIds: ['acct_2'], amount: 3_000, feeReturned: 300, reason: 'REVERSED' }),
        event('PayoutRequested', 'payout-po_1', 'r-8', { merchantId: 'm-1', payoutId: 'po_1', amount: 9_500 }),
        event('PayoutPaid', 'payout-po_1', 'w-1', { merchantId: 'm-1', payoutId: 'po_1', amount: 9_500 }, 'system'),
        event('PayoutRequested', 'payout-po_2', 'r-9', { merchantId: 'm-2', payoutId: 'po_2', amount: 5_000 }),
        event('PayoutFailed', 'payout-po_2', 'w-2', { merchantId: 'm-2', payoutId: 'po_2', amount: 5_000 }, 'system'),
        event('TransferCreated', 'transfer-tr_1', 'r-10', { source: 'm-1', destination: 'acct_1', amount: 2_000 }),
        event('TransferReversed', 'transfer-tr_1', 'r-11', { source: 'm-1', destination: 'acct_1', amount: 500 }),
      ];
    }
    const books = (payables: Record<string, number>, fees: number, transit = 0): LedgerSnapshot => ({
      modes: ['live'],
      balanced: true,
      totalDebits: 0,
      totalCredits: 0,
      accounts: [
        ...Object.entries(payables).map(([id, balance]) => ({ account: `merchant:${id}:payable`, debit: 0, credit: 0, balance })),
        { account: 'merchant:m-1:fees', debit: 0, credit: 0, balance: fees },
        { account: 'payouts:in-transit', debit: 0, credit: 0, balance: transit },
      ],
    });
    // m-1: payable −5.00 (95.00 + 20.00 − 10.00 − 95.00 paid out − 15.00 moved), fees 6.00 (5.00 + 4.00 − 3.00);
    // acct_1 15.00; acct_2 36.00 − 27.00 = 9.00; m-2 50.00 (its payout failed).
    const right = { 'm-1': -5, 'm-2': 50, acct_1: 15, acct_2: 9 };

    it("passes when each payee's payable and fees, payouts on their way and paid out add up to what it was credited less what was taken back", () => {
      expect(checkSettlement(settled(), books(right, 6))).toMatchObject({ ok: true, problems: [] });
    });

    it('fails a failed payout whose money did not come back to the payable', () => {
      expect(checkSettlement(settled(), books({ ...right, 'm-2': 0 }, 6)).problems).toEqual([
        'merchant m-2: credited 5000 santim, but payable and fees 0 + in transit 0 + paid out 0 = 0',
      ]);
    });

    it('fails a reversal that took the fee back from the seller, and money left in transit after every payout ended', () => {
      expect(checkSettlement(settled(), books({ ...right, acct_2: 6 }, 9, 5)).problems).toEqual([
        'merchant m-1: credited 9600 santim, but payable and fees 400 + in transit 0 + paid out 9500 = 9900',
        'merchant acct_2: credited 900 santim, but payable and fees 600 + in transit 0 + paid out 0 = 600',
        'payouts:in-transit holds 500 santim, the payouts on their way 0',
      ]);
    });
  });
  describe('accounts', () => {
    const ledger = (payable: number): LedgerSnapshot => ({ modes: ['live'], balanced: true, totalDebits: 0, totalCredits: 0, accounts: [{ account: 'merchant:acct_1:payable', debit: 0, credit: 0, balance: payable }] });
    const history = (...more: LoggedEvent[]): LoggedEvent[] => [
      event('AccountCreated', 'account-acct_1', 'r-1', { accountId: 'acct_1', merchantId: 'm-1' }),
      event('AllocationReleased', 'escrow-esc_1', 'r-2', { merchantId: 'acct_1', amount: 5_000 }),
      ...more,
    ];

    it('passes payouts of a verified account and a balance, available and on hold, equal to the ledger', () => {
      const events = history(
        event('AccountVerified', 'account-acct_1', 'r-3', { accountId: 'acct_1' }),
        event('PayoutRequested', 'payout-po_1', 'r-4', { merchantId: 'acct_1', payoutId: 'po_1', amount: 3_000 }),
      );
      expect(checkAccounts(events, ledger(20), [{ accountId: 'acct_1', available: 5, onHold: 15 }])).toMatchObject({ ok: true, problems: [] });
    });

    it('fails a payout before the account was verified, and a balance apart from the ledger', () => {
      const events = history(
        event('PayoutRequested', 'payout-po_1', 'r-3', { merchantId: 'acct_1', payoutId: 'po_1', amount: 3_000 }),
        event('AccountVerified', 'account-acct_1', 'r-4', { accountId: 'acct_1' }),
      );
      expect(checkAccounts(events, ledger(20), [{ accountId: 'acct_1', available: 10, onHold: 5 }]).problems).toEqual([
        'payout po_1 was requested for acct_1 while it was PENDING_VERIFICATION',
        'account acct_1: its balance says 1000 santim available and 500 on hold, its ledger account holds 2000',
      ]);
    });
  });

  describe('availability', () => {
    /** An event at log position `commit`-0, recorded at `recordedAt`. */
    const at = (commit: number, recordedAt: string, e: LoggedEvent): LoggedEvent => ({ ...e, position: `${commit}-0`, recordedAt });
    const payout = (commit: number, recordedAt: string, data: Record<string, unknown>) =>
      at(commit, recordedAt, event('PayoutRequested', `payout-${String(data.payoutId)}`, `r-${commit}`, { merchantId: 'acct_1', requestedAt: recordedAt, ...data }));
    /**
     * acct_1 holds its credits 2 days from 09:00 UTC on 28 November (Addis Ababa 12:00): 50.00 ETB released on
     * the 27th (no holding period yet: available at once), 80.00 on the 28th (available from 30 November,
     * 00:00 in Addis Ababa, 29 November 21:00 UTC); m-1 earns a 5.00 fee on the first (fees are never held).
     */
    const history = (): LoggedEvent[] => [
      at(1, '2026-11-27T08:00:00.000Z', event('EscrowCreated', 'escrow-esc_1', 'r-1', { merchantId: 'm-1' })),
      at(2, '2026-11-27T09:00:00.000Z', event('AllocationReleased', 'escrow-esc_1', 'r-2', { merchantId: 'acct_1', amount: 5_500, fee: 500 })),
      at(3, '2026-11-28T09:00:00.000Z', event('PayoutSettingsChanged', 'payout-settings-acct_1', 'r-3', { merchantId: 'acct_1', settings: { payoutDelayDays: 2 } })),
      at(4, '2026-11-28T10:00:00.000Z', event('AllocationReleased', 'escrow-esc_1', 'r-4', { merchantId: 'acct_1', amount: 8_000 })),
    ];

    it('passes payouts of what was available: not the credits still on hold, then all once their day came', () => {
      const events = [
        ...history(),
        payout(5, '2026-11-28T11:00:00.000Z', { payoutId: 'po_1', amount: 5_000, through: '4-0' }),
        at(6, '2026-11-28T11:05:00.000Z', event('PayoutFailed', 'payout-po_1', 'w-1', { merchantId: 'acct_1', payoutId: 'po_1', amount: 5_000 }, 'system')),
        payout(7, '2026-11-29T21:00:00.000Z', { payoutId: 'po_2', amount: 13_000, through: '6-0' }),
        at(8, '2026-11-29T22:00:00.000Z', event('PayoutRequested', 'payout-po_3', 'r-8', { merchantId: 'm-1', payoutId: 'po_3', amount: 500, fees: 500, through: '7-0', requestedAt: '2026-11-29T22:00:00.000Z' })),
      ];
      expect(checkPayoutAvailability(events)).toMatchObject({ ok: true, problems: [] });
    });

    it('fails a payout that took credits before their day, and one asked for while only held money was there', () => {
      const events = [
        ...history(),
        payout(5, '2026-11-28T11:00:00.000Z', { payoutId: 'po_1', amount: 13_000, through: '4-0' }),
        payout(6, '2026-11-29T20:59:59.000Z', { payoutId: 'po_2', amount: 8_000, through: '5-0' }),
      ];
      expect(checkPayoutAvailability(events).problems).toEqual([
        'payout po_1 of acct_1 took 13000 santim, more than was available: payable 13000 + fees 0 − on hold 8000 = 5000 santim available at 2026-11-28T11:00:00.000Z through 4-0',
        'payout po_2 of acct_1 (8000 santim) was requested with nothing available: payable 0 + fees 0 − on hold 8000 = -8000 santim available at 2026-11-29T20:59:59.000Z through 5-0',
      ]);
    });

    it('counts only the movements up to the ledger position a payout was decided on, and a reversal at once', () => {
      const events = [
        ...history(),
        at(5, '2026-11-28T10:30:00.000Z', event('EscrowRefundRequested', 'escrow-esc_1', 'r-5', { merchantIds: ['acct_1'], amount: 2_000, reason: 'REVERSED' })),
        payout(6, '2026-11-28T11:00:00.000Z', { payoutId: 'po_1', amount: 5_000, through: '4-0' }),
        payout(7, '2026-11-28T11:01:00.000Z', { payoutId: 'po_2', amount: 1, through: '6-0' }),
      ];
      expect(checkPayoutAvailability(events).problems).toEqual([
        'payout po_2 of acct_1 (1 santim) was requested with nothing available: payable 6000 + fees 0 − on hold 8000 = -2000 santim available at 2026-11-28T11:01:00.000Z through 6-0',
      ]);
    });
  });

  describe('reversals', () => {
    const history = (...more: LoggedEvent[]): LoggedEvent[] => [
      event('EscrowCreated', 'escrow-esc_1', 'r-1', { merchantId: 'm-1' }),
      event('AllocationReleased', 'escrow-esc_1', 'r-2', { merchantId: 'acct_1', amount: 5_000, fee: 500 }),
      event('TransferCreated', 'transfer-tr_1', 'r-3', { transferId: 'tr_1', source: 'm-1', destination: 'acct_1', amount: 1_000 }),
      ...more,
    ];
    const reversal = (requestId: string, refundId: string, amount: number, feeReturned?: number) =>
      event('EscrowRefundRequested', 'escrow-esc_1', requestId, { refundId, merchantIds: ['acct_1'], amount, reason: 'REVERSED', ...(feeReturned === undefined ? {} : { feeReturned }) });
    const transferReversal = (requestId: string, reversalId: string, amount: number) =>
      event('TransferReversed', 'transfer-tr_1', requestId, { transferId: 'tr_1', reversalId, source: 'm-1', destination: 'acct_1', amount });

    it('passes reversals that add up to what was released and moved, each id once', () => {
      const events = history(reversal('r-4', 'esc_1-refund-1', 3_000, 300), reversal('r-5', 'esc_1-refund-2', 2_000, 200), transferReversal('r-6', 'tr_1-reversal-1', 1_000));
      expect(checkReversals(events)).toMatchObject({ ok: true, problems: [] });
    });

    it('fails an allocation reversed beyond its release, a fee given back twice, a transfer reversed beyond its amount and ids requested twice', () => {
      const events = history(
        reversal('r-4', 'esc_1-refund-1', 3_000, 300),
        reversal('r-5', 'esc_1-refund-1', 3_000, 300),
        transferReversal('r-6', 'tr_1-reversal-1', 600),
        transferReversal('r-7', 'tr_1-reversal-1', 600),
      );
      expect(checkReversals(events).problems).toEqual([
        'refund esc_1-refund-1 was requested twice',
        'escrow-esc_1 acct_1: 6000 santim reversed of 5000 released',
        'escrow-esc_1 acct_1: 600 santim of fees given back of 500 earned',
        'transfer reversal tr_1-reversal-1 was requested twice',
        'transfer tr_1: 1200 santim reversed of 1000 moved',
      ]);
    });
  });

  describe('work retries', () => {
    const line = (time: number, msg: string, level = 50) => JSON.stringify({ level, time, pid: 1, context: 'PaymentWork', msg });
    const conflict = 'payout-books-m-1 kept changing while this request was applied; retry it';
    const worker = (name: string, ...lines: string[]) => ({ name, text: ['worker ready (ROLE=worker)', ...lines, ''].join('\n') });

    it('passes a concurrent modification retried to success, in the other worker after a lost Redis queued the work again', () => {
      const logs = [
        worker('worker-1', line(1, `scheduled-payout of m-1 (daily-2026-11-28), run s0 failed, will retry: ${conflict}`), line(2, 'payout of m-1 (po_1), run p0 failed, will retry: provider timeout')),
        worker('worker-2', line(3, 'scheduled-payout of m-1 (daily-2026-11-28), run s0 done', 20)),
      ];
      expect(checkWorkRetries(logs)).toMatchObject({ ok: true, problems: [] });
    });

    it('fails work whose concurrent modification was never followed by a success of it', () => {
      const logs = [
        worker(
          'worker-1',
          line(1, `scheduled-payout of m-1 (daily-2026-11-28), run s0 failed, will retry: ${conflict}`),
          line(2, 'scheduled-payout of m-1 (daily-2026-11-27), run s0 done', 20),
          line(3, `scheduled-payout of m-1 (daily-2026-11-28), run s1 failed, will retry: ${conflict}`),
          line(4, 'refund of esc_1 (esc_1-refund-1), run r0 done', 20),
        ),
      ];
      expect(checkWorkRetries(logs).problems).toEqual([
        `scheduled-payout of m-1 (daily-2026-11-28) failed 2 times on a concurrent modification and never succeeded after (last: run s1 in worker-1 at 1970-01-01T00:00:00.003Z: ${conflict})`,
      ]);
    });
  });
});
