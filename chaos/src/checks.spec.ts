import { deliveryIdFor } from '@app/callbacks';
import { checkCallbacks, checkIntegrity, checkLedger, checkSecrets, checkWrites } from './checks';
import type { EscrowSnapshot, LedgerSnapshot, LoggedEvent, Operation, ReceivedCallback } from './records';

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
    { path: '/callbacks/m-1', deliveryId: deliveryIdFor(paid.id), body, signatureValid: true, answer: 'error' },
    { path: '/callbacks/m-1', deliveryId: deliveryIdFor(paid.id), body, signatureValid: true, answer: 'ok' },
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

  describe('ledger', () => {
    const escrow = (status: string, ...allocations: [number, string][]): EscrowSnapshot => ({
      escrowId: 'esc_1',
      status,
      allocations: allocations.map(([amount, allocationStatus], i) => ({ merchantId: `s-${i}`, amount, status: allocationStatus })),
    });
    const ledger = (escrowBalance: number, credits = 150.5): LedgerSnapshot => ({
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
    });

    it('fails an unbalanced trial balance', () => {
      expect(checkLedger(ledger(0, 150.51), [escrow('RELEASED', [100.25, 'RELEASED'], [50.25, 'RELEASED'])]).problems).toEqual([
        expect.stringContaining('trial balance'),
      ]);
    });

    it('fails an escrow account that differs from its held allocations, and a closed escrow that still holds money', () => {
      expect(checkLedger(ledger(50.25), [escrow('HELD', [100.25, 'HELD'], [50.25, 'HELD'])]).ok).toBe(false);
      const closed = checkLedger(ledger(50.25), [escrow('REFUNDED', [100.25, 'RELEASED'], [50.25, 'REFUNDED'])]);
      expect(closed.problems).toEqual([expect.stringContaining('held allocations 0'), expect.stringContaining('is REFUNDED but its account holds 5025')]);
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
});
