import { signCallbackBody } from '@app/callbacks';
import { type RunningApp, startApp } from '../support/app';
import { CallbackReceiver, type ReceivedCallback } from '../support/callback-receiver';
import { escrowRequest, orderRequest, registerMarketplace, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * Webhook endpoints (docs/guides/webhook-endpoints.md): each receives the callback types it subscribed
 * to, signed with its own secret, beside the order's own callbackURL, which is told exactly what it was before.
 */
describe('webhook endpoints', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  let other: TestMarketplace;
  const receivers: CallbackReceiver[] = [];
  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (path: string, body?: unknown, m = merchant, headers: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body: body ?? {}, headers: { ...as(m), ...headers } });
  const get = (path: string, m = merchant) => call(running.baseUrl, 'GET', path, { headers: as(m) });
  const receiver = async () => {
    const started = await new CallbackReceiver().start();
    receivers.push(started);
    return started;
  };
  const json = (callback: ReceivedCallback) => JSON.parse(callback.body) as Record<string, any>;
  const statuses = (r: CallbackReceiver) => r.received.map((c) => json(c).status);
  const signedWith = (secret: string, callback: ReceivedCallback) => signCallbackBody(secret, String(callback.headers['x-timestamp']), callback.body) === callback.headers['x-signature'];
  const endpoint = async (url: string, events: string[], description?: string) => {
    const created = await post('/v1/trdp/webhook-endpoints', { url, events, ...(description ? { description } : {}) });
    expect(created.status).toBe(201);
    return created.body.data as { endpointId: string; secret: string };
  };
  /** Every delivery of an order (or of an endpoint's test events), once the one to `witness` was delivered. */
  const deliveriesOnceDelivered = (orderId: string, witness: string) =>
    waitFor(async () => {
      const list: { webhookEndpointId?: string; status: string }[] = (await get(`/v1/trdp/callbacks?orderId=${orderId}`)).body.data;
      return list.some((d) => d.webhookEndpointId === witness && d.status === 'DELIVERED') && list;
    }, `the callback of ${orderId} to ${witness}`);

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200', CALLBACK_RETRY_SCHEDULE_MS: '3600000' } });
    merchant = await registerMarketplace(running.baseUrl, 'Hooked Merchant');
    other = await registerMarketplace(running.baseUrl, 'Other Merchant');
  });
  afterAll(async () => {
    await running?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('sends an endpoint for PAYOUT_PAID only payout callbacks, one for * everything, and the order’s callbackURL what it always had', async () => {
    const [orders, payouts, everything] = [await receiver(), await receiver(), await receiver()];
    const payoutsOnly = await endpoint(payouts.url, ['PAYOUT_PAID'], 'Payouts service');
    const all = await endpoint(everything.url, ['*']);
    expect(payoutsOnly.secret).toMatch(/^whsec_/);

    const created = await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: orders.url, allocations: [{ merchantId: merchant.merchantId, amount: 600.5 }, { merchantId: merchant.courier1, amount: 400 }] }));
    const { escrowId } = created.body.data;
    await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.merchantId })).status).toBe(200);
    await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Hooked Merchant' });
    const payout = await post('/v1/trdp/payouts');
    expect(payout.status).toBe(201);

    await waitFor(async () => statuses(everything).includes('PAYOUT_PAID') && statuses(payouts).length > 0 && statuses(orders).length >= 2, 'every receiver to be called');
    expect(statuses(payouts)).toEqual(['PAYOUT_PAID']);
    expect(json(payouts.received[0])).toMatchObject({ status: 'PAYOUT_PAID', payoutId: payout.body.data.payoutId, merchantId: merchant.merchantId });
    expect(statuses(everything).sort()).toEqual(['PAID', 'PAYOUT_PAID', 'RELEASED']);
    // The order's URL: the same two callbacks as ever, signed with the merchant's secret, and no payout callback (no payout URL is set).
    expect(statuses(orders).sort()).toEqual(['PAID', 'RELEASED']);
    for (const callback of orders.received) {
      expect(signedWith(merchant.webhookSecret, callback)).toBe(true);
      expect(callback.headers['x-delivery-id']).toBe(json(callback).deliveryId);
      expect(Number(callback.headers['x-timestamp'])).toBeGreaterThan(1e12);
    }
    // An endpoint gets the very payload, under a delivery id of its own, and the event's events API id after it.
    const paidToOrder = orders.received.find((c) => json(c).status === 'PAID')!;
    const paidToAll = everything.received.find((c) => json(c).status === 'PAID')!;
    expect(paidToAll.body).toBe(`${paidToOrder.body.replace(json(paidToOrder).deliveryId, json(paidToAll).deliveryId).slice(0, -1)},"eventId":"${json(paidToAll).eventId}"}`);
    expect(json(paidToAll).deliveryId).not.toBe(json(paidToOrder).deliveryId);
    // Each endpoint's own secret signs its callbacks; another's does not verify them.
    expect(signedWith(payoutsOnly.secret, payouts.received[0])).toBe(true);
    expect(signedWith(all.secret, payouts.received[0])).toBe(false);
    expect(signedWith(merchant.webhookSecret, payouts.received[0])).toBe(false);
    expect(everything.received.every((c) => signedWith(all.secret, c))).toBe(true);
    // The delivery log names the endpoint each delivery went to.
    const logged = (await get(`/v1/trdp/callbacks?orderId=${escrowId}`)).body.data as { webhookEndpointId?: string; url: string }[];
    expect(logged.map((d) => d.webhookEndpointId ?? d.url).sort()).toEqual([all.endpointId, all.endpointId, orders.url, orders.url].sort());
  });

  it('names each endpoint callback by the id the events API lists its event under, and the order’s callbackURL is sent no such id', async () => {
    const [orders, paid, failed] = [await receiver(), await receiver(), await receiver()];
    const [toPaid, toFailed] = [await endpoint(paid.url, ['PAID']), await endpoint(failed.url, ['PAID', 'FAILED'])];
    const orderId = (await post('/v1/trdp/order', orderRequest({ callbackURL: orders.url }))).body.data.order_id;
    await post(`/v1/sandbox/orders/${orderId}/complete`, { outcome: 'PAID' });
    const of = (r: CallbackReceiver) => r.received.find((c) => json(c).orderId === orderId);
    await waitFor(async () => of(orders) && of(paid) && of(failed), 'the order’s callback and both endpoints’');
    const [toOrder, atPaid, atFailed] = [json(of(orders)!), json(of(paid)!), json(of(failed)!)];
    const listed = await waitFor(async () => {
      const events: { id: string; payload: Record<string, unknown> }[] = (await get('/v1/trdp/events?type=PAID&limit=100')).body.data.events;
      return events.find((e) => e.payload.orderId === orderId);
    }, 'the events API to list the payment');

    // One id across both endpoints and the events API, though each endpoint's delivery has a deliveryId of its own.
    expect(atPaid.eventId).toBe(listed.id);
    expect(atFailed.eventId).toBe(listed.id);
    expect(new Set([toOrder.deliveryId, atPaid.deliveryId, atFailed.deliveryId]).size).toBe(3);
    expect((await get(`/v1/trdp/events/${atPaid.eventId}`)).body.data.payload).toEqual(toOrder);
    // The order's callbackURL is sent the spec's payload as before, and the events API lists that very payload.
    expect(toOrder).not.toHaveProperty('eventId');
    expect(listed.payload).not.toHaveProperty('eventId');
    expect(JSON.stringify(listed.payload)).toBe(of(orders)!.body);
    expect(signedWith(toPaid.secret, of(paid)!)).toBe(true);
    expect(signedWith(toFailed.secret, of(failed)!)).toBe(true);
  });

  it('tests, rotates the secret of, redelivers to, disables and deletes an endpoint', async () => {
    const [hooks, witness] = [await receiver(), await receiver()];
    const hooked = await endpoint(hooks.url, ['*']);
    const watching = await endpoint(witness.url, ['PAID']);
    const path = `/v1/trdp/webhook-endpoints/${hooked.endpointId}`;
    const arrived = (testId: string) => waitFor(async () => hooks.received.find((c) => json(c).billRefNo === testId), `the test event ${testId}`);

    const test = await post(`${path}/test`);
    expect(test.status).toBe(202);
    const first = await arrived(test.body.data.testId);
    expect(json(first)).toMatchObject({ status: 'TEST', endpointId: hooked.endpointId, merchantId: merchant.merchantId, eventId: test.body.data.testId });
    // A test is nothing that happened to the merchant's money: the events API does not list it.
    expect((await get(`/v1/trdp/events/${test.body.data.testId}`)).status).toBe(404);
    expect(signedWith(hooked.secret, first)).toBe(true);
    expect(witness.received).toEqual([]);

    const rotated = await post(`${path}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).not.toBe(hooked.secret);
    const afterRotation = await arrived((await post(`${path}/test`)).body.data.testId);
    expect(signedWith(rotated.body.data.secret, afterRotation)).toBe(true);
    expect(signedWith(hooked.secret, afterRotation)).toBe(false);

    // A failed attempt waits an hour for its retry; redelivery sends it now, the same bytes.
    hooks.answers = [500];
    const failing = (await post(`${path}/test`)).body.data.testId;
    const pending = await waitFor(async () => {
      const list: { deliveryId: string; status: string; attempts: unknown[]; payload: { billRefNo: string } }[] = (await get(`/v1/trdp/callbacks?orderId=${hooked.endpointId}`)).body.data;
      return list.find((d) => d.payload.billRefNo === failing && d.attempts.length === 1);
    }, 'the failed attempt');
    expect(pending.status).toBe('PENDING');
    expect((await post(`/v1/trdp/callbacks/${pending.deliveryId}/redeliver`)).status).toBe(202);
    await waitFor(async () => ((await get(`/v1/trdp/callbacks?orderId=${hooked.endpointId}`)).body.data as typeof pending[]).some((d) => d.deliveryId === pending.deliveryId && d.status === 'DELIVERED'), 'the redelivery');
    const sent = hooks.received.filter((c) => json(c).billRefNo === failing);
    expect(sent).toHaveLength(2);
    expect(sent[1].body).toBe(sent[0].body);

    const disabled = await post(path, { disabled: true });
    expect(disabled.body.data).toMatchObject({ endpointId: hooked.endpointId, disabled: true, events: ['*'] });
    const whileDisabled = (await post('/v1/trdp/order', orderRequest({ callbackURL: undefined }))).body.data.order_id;
    await post(`/v1/sandbox/orders/${whileDisabled}/complete`, { outcome: 'PAID' });
    expect((await deliveriesOnceDelivered(whileDisabled, watching.endpointId)).map((d) => d.webhookEndpointId)).not.toContain(hooked.endpointId);

    expect((await post(path, { disabled: false })).body.data.disabled).toBe(false);
    // A delivery left waiting for its retry when the endpoint is deleted: its next attempt ends it, sending nothing.
    hooks.answers = [500];
    const stranded = (await post(`${path}/test`)).body.data.testId;
    const waiting = await waitFor(async () => {
      const list: { deliveryId: string; attempts: unknown[]; payload: { billRefNo: string } }[] = (await get(`/v1/trdp/callbacks?orderId=${hooked.endpointId}`)).body.data;
      return list.find((d) => d.payload.billRefNo === stranded && d.attempts.length === 1);
    }, 'the stranded attempt');
    const deleted = await call(running.baseUrl, 'DELETE', path, { headers: as(merchant) });
    expect([deleted.status, deleted.body.data]).toEqual([200, { endpointId: hooked.endpointId, deleted: true, livemode: false }]);
    expect((await get(path)).status).toBe(404);
    expect((await post(`${path}/test`)).status).toBe(404);
    expect((await post(`/v1/trdp/callbacks/${waiting.deliveryId}/redeliver`)).status).toBe(202);
    const ended = await waitFor(async () => {
      const list: { deliveryId: string; status: string; attempts: { error: string | null }[] }[] = (await get(`/v1/trdp/callbacks?orderId=${hooked.endpointId}`)).body.data;
      return list.find((d) => d.deliveryId === waiting.deliveryId && d.status === 'ABANDONED');
    }, 'the deleted endpoint’s delivery to end');
    expect(ended.attempts.map((a) => a.error)).toEqual([null, 'The webhook endpoint was deleted']);
    expect(hooks.received.filter((c) => json(c).billRefNo === stranded)).toHaveLength(1);
    const afterDeletion = (await post('/v1/trdp/order', orderRequest({ callbackURL: undefined }))).body.data.order_id;
    await post(`/v1/sandbox/orders/${afterDeletion}/complete`, { outcome: 'PAID' });
    expect((await deliveriesOnceDelivered(afterDeletion, watching.endpointId)).map((d) => d.webhookEndpointId)).not.toContain(hooked.endpointId);
    expect(hooks.received.filter((c) => json(c).status === 'PAID')).toEqual([]);
  });

  it('lists a page at a time, answers only its merchant, replays a keyed create, and refuses bad input with codes of their own', async () => {
    const key = { 'idempotency-key': `create-${Date.now()}` };
    const body = { url: 'https://hooks.example/orders', events: ['PAID', 'REFUNDED'] };
    const once = await post('/v1/trdp/webhook-endpoints', body, merchant, key);
    const again = await post('/v1/trdp/webhook-endpoints', body, merchant, key);
    expect([again.status, again.body.data.endpointId, again.body.data.secret]).toEqual([201, once.body.data.endpointId, once.body.data.secret]);

    const all = (await get('/v1/trdp/webhook-endpoints?limit=100')).body.data;
    const pageOne = (await get('/v1/trdp/webhook-endpoints?limit=1')).body.data;
    expect(pageOne.endpoints).toEqual([all.endpoints[0]]);
    expect(pageOne.hasMore).toBe(true);
    expect((await get(`/v1/trdp/webhook-endpoints?limit=1&startingAfter=${pageOne.endpoints[0].endpointId}`)).body.data.endpoints).toEqual([all.endpoints[1]]);
    expect(all.endpoints.some((e: Record<string, unknown>) => 'secret' in e)).toBe(false);
    expect((await get(`/v1/trdp/webhook-endpoints?startingAfter=we_not_one`)).body.error.code).toBe('UNKNOWN_CURSOR');
    expect((await get('/v1/trdp/webhook-endpoints', other)).body.data).toEqual({ endpoints: [], hasMore: false, livemode: false });
    expect((await get(`/v1/trdp/webhook-endpoints/${once.body.data.endpointId}`, other)).status).toBe(404);
    expect((await post(`/v1/trdp/webhook-endpoints/${once.body.data.endpointId}/secret`, {}, other)).status).toBe(404);

    const refused = async (input: Record<string, unknown>) => {
      const res = await post('/v1/trdp/webhook-endpoints', { url: 'https://hooks.example/x', events: ['*'], ...input });
      expect(res.headers.get('content-type')).toContain('application/json');
      return [res.status, res.body.error.code];
    };
    expect(await refused({ events: [] })).toEqual([400, 'WEBHOOK_EVENTS_EMPTY']);
    expect(await refused({ events: ['PAYOUT_PAID', 'payout.paid'] })).toEqual([400, 'WEBHOOK_EVENT_TYPE_UNKNOWN']);
    expect(await refused({ url: 'https://user:password@hooks.example/x' })).toEqual([400, 'WEBHOOK_URL_REFUSED']);
    const update = await post(`/v1/trdp/webhook-endpoints/${once.body.data.endpointId}`, { events: ['REFUNDS'] });
    expect([update.status, update.body.error.code]).toEqual([400, 'WEBHOOK_EVENT_TYPE_UNKNOWN']);
    expect((await get('/v1/trdp/webhook-endpoints?limit=100')).body.data.endpoints).toHaveLength(all.endpoints.length);
  });
});
