import { signCallbackBody } from '@app/callbacks';
import { type RunningApp, startApp } from '../support/app';
import { CallbackReceiver, type ReceivedCallback } from '../support/callback-receiver';
import { escrowRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * Sellers hear about their own money (issue 30, item 9; docs/guides/marketplaces.md): a seller account
 * with a callbackURL is sent its share of each escrow, its payouts and its transfers, signed with its
 * own webhook secret; the platform hears of its accounts' changes and payouts at its webhook endpoints,
 * and finds them in its events API.
 */
describe('seller accounts’ callbacks', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  const receivers: CallbackReceiver[] = [];
  const as = (extra: Record<string, string> = {}) => ({ 'x-api-secret': platform.apiSecret, ...extra });
  const post = (path: string, body: unknown = {}, extra: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body, headers: as(extra) });
  const get = (path: string, extra: Record<string, string> = {}) => call(running.baseUrl, 'GET', path, { headers: as(extra) });
  const receiver = async () => {
    const started = await new CallbackReceiver().start();
    receivers.push(started);
    return started;
  };
  const json = (callback: ReceivedCallback) => JSON.parse(callback.body) as Record<string, any>;
  const statuses = (r: CallbackReceiver) => r.received.map((c) => json(c).status as string);
  const signedWith = (secret: string, callback: ReceivedCallback) => signCallbackBody(secret, String(callback.headers['x-timestamp']), callback.body) === callback.headers['x-signature'];
  const account = async (name: string, callbackURL: string) => {
    const created = await post('/v1/trdp/accounts', { name, type: 'individual', tin: '0000000001', reference: name.toLowerCase().replace(/\s+/g, '-'), callbackURL });
    expect(created.body.error).toBeUndefined();
    expect(created.status).toBe(201);
    return created.body.data.accountId as string;
  };
  const secretOf = async (accountId: string) => {
    const answer = await get('/v1/trdp/webhook-secret', { 'x-account-id': accountId });
    expect(answer.status).toBe(200);
    expect(answer.body.data.merchantId).toBe(accountId);
    return answer.body.data.webhookSecret as string;
  };

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200', CALLBACK_RETRY_SCHEDULE_MS: '3600000' } });
    platform = await registerMerchant(running.baseUrl, 'Merkato Marketplace');
  });
  afterAll(async () => {
    await running?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('sends each seller its own share signed with its own secret, the platform what it always had, and both their payouts and transfers', async () => {
    const [toPlatform, toA, toB, payoutHooks, accountHooks, aHooks] = await Promise.all([receiver(), receiver(), receiver(), receiver(), receiver(), receiver()]);
    const payoutsOnly = (await post('/v1/trdp/webhook-endpoints', { url: payoutHooks.url, events: ['PAYOUT_PAID'] })).body.data;
    const accountUpdates = (await post('/v1/trdp/webhook-endpoints', { url: accountHooks.url, events: ['ACCOUNT_UPDATED'] })).body.data;
    const sellerA = await account('Almaz Tesfaye', toA.url);
    const sellerB = await account('Bekele Girma', toB.url);
    const forA = { 'x-account-id': sellerA };
    // An endpoint made acting for an account is the account's: the platform's own list does not show it.
    const aEndpoint = await post('/v1/trdp/webhook-endpoints', { url: aHooks.url, events: ['*'] }, forA);
    expect(aEndpoint.status).toBe(201);
    expect((await get('/v1/trdp/webhook-endpoints')).body.data.endpoints.map((e: { endpointId: string }) => e.endpointId)).not.toContain(aEndpoint.body.data.endpointId);
    expect((await get('/v1/trdp/webhook-endpoints', forA)).body.data.endpoints.map((e: { endpointId: string }) => e.endpointId)).toEqual([aEndpoint.body.data.endpointId]);
    const [secretA, secretB] = [await secretOf(sellerA), await secretOf(sellerB)];
    expect(secretA).toMatch(/^whsec_/);
    expect(secretA).not.toBe(secretB);
    expect(await secretOf(sellerA)).toBe(secretA);

    const created = await post(
      '/v1/trdp/escrow/order',
      escrowRequest({
        callbackURL: toPlatform.url,
        allocations: [
          { merchantId: sellerA, amount: 600.5 },
          { merchantId: sellerB, amount: 300 },
          { merchantId: platform.merchantId, amount: 100 },
        ],
      }),
    );
    expect(created.status).toBe(201);
    const { escrowId } = created.body.data;
    await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: sellerA })).status).toBe(200);
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: platform.merchantId })).status).toBe(200);

    await waitFor(async () => statuses(toA).length >= 2 && statuses(toB).length >= 1 && statuses(toPlatform).length >= 3, 'every party to hear of the escrow');
    // Each callback is a delivery of its own, retried on its own: they may arrive in any order.
    const toAOf = (status: string) => toA.received.map(json).find((payload) => payload.status === status);
    expect(statuses(toA).sort()).toEqual(['HELD', 'RELEASED']);
    expect(toAOf('HELD')).toMatchObject({ status: 'HELD', accountId: sellerA, amount: 600.5, escrowId, merchantId: platform.merchantId });
    expect(toAOf('RELEASED')).toMatchObject({ status: 'RELEASED', accountId: sellerA, amount: 600.5, allocation: { merchantId: sellerA } });
    expect(statuses(toB)).toEqual(['HELD']);
    expect(json(toB.received[0])).toMatchObject({ status: 'HELD', accountId: sellerB, amount: 300 });
    // Each its own share: never the other allocations'.
    for (const callback of toA.received) expect(callback.body).not.toContain(sellerB);
    for (const callback of toB.received) expect(callback.body).not.toContain(sellerA);
    // Each seller's callbacks verify with its own secret only; the platform's with the platform's, as ever.
    expect(toA.received.every((c) => signedWith(secretA, c) && !signedWith(platform.webhookSecret, c))).toBe(true);
    expect(toB.received.every((c) => signedWith(secretB, c) && !signedWith(secretA, c))).toBe(true);
    expect(statuses(toPlatform).sort()).toEqual(['PAID', 'RELEASED', 'RELEASED']);
    expect(toPlatform.received.every((c) => signedWith(platform.webhookSecret, c))).toBe(true);
    expect(JSON.parse(toPlatform.received.find((c) => json(c).status === 'PAID')!.body).allocations).toBeUndefined();

    // A new payout destination tells the platform (ACCOUNT_UPDATED) at its endpoint for that type.
    expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Almaz Tesfaye' }, forA)).status).toBe(200);
    const updated = await waitFor(async () => accountHooks.received.map(json).find((p) => p.accountId === sellerA && p.changed.includes('payoutDestination')), 'ACCOUNT_UPDATED for the new destination');
    expect(updated).toMatchObject({ status: 'ACCOUNT_UPDATED', merchantId: platform.merchantId, accountStatus: 'VERIFIED', reference: 'almaz-tesfaye' });
    expect(accountHooks.received.every((c) => signedWith(accountUpdates.secret, c) && json(c).status === 'ACCOUNT_UPDATED')).toBe(true);

    // The seller's payout: to its callbackURL, signed with its secret; the platform's PAYOUT_PAID endpoint hears of it too.
    const payout = await post('/v1/trdp/payouts', {}, forA);
    expect(payout.status).toBe(201);
    const paid = await waitFor(async () => toA.received.find((c) => json(c).status === 'PAYOUT_PAID'), "the seller's PAYOUT_PAID");
    expect(json(paid)).toMatchObject({ payoutId: payout.body.data.payoutId, merchantId: sellerA, amount: 600.5 });
    expect(signedWith(secretA, paid)).toBe(true);
    await waitFor(async () => payoutHooks.received.length > 0, "the platform's payout endpoint to be called");
    expect(statuses(payoutHooks)).toEqual(['PAYOUT_PAID']);
    expect(json(payoutHooks.received[0])).toMatchObject({ payoutId: payout.body.data.payoutId, merchantId: sellerA });
    expect(signedWith(payoutsOnly.secret, payoutHooks.received[0])).toBe(true);
    // The platform's events API lists it too, so a platform replaying what its endpoints missed finds it: the
    // body its endpoint received but for that delivery's own deliveryId and the eventId it ends with, which is the
    // event's id there, the very event (id and payload) the seller lists.
    type Listed = { id: string; type: string; payload: Record<string, unknown> };
    const payoutsListed = async (extra: Record<string, string> = {}) => (await get('/v1/trdp/events?type=PAYOUT_PAID', extra)).body.data.events as Listed[];
    const listed = await waitFor(async () => (await payoutsListed()).find((e) => e.payload.payoutId === payout.body.data.payoutId), "the seller's payout in the platform's events");
    expect(JSON.stringify({ ...listed.payload, deliveryId: json(payoutHooks.received[0]).deliveryId, eventId: listed.id })).toBe(payoutHooks.received[0].body);
    expect(JSON.stringify(listed.payload)).toBe(paid.body);
    expect(json(paid)).not.toHaveProperty('eventId');
    expect((await payoutsListed(forA)).map((e) => e.id)).toEqual([listed.id]);
    expect((await get(`/v1/trdp/events/${listed.id}`)).body.data).toEqual(listed);

    // A rotated secret signs what follows: a transfer to the seller, which both sides hear of.
    const rotated = await post('/v1/trdp/webhook-secret/rotate', {}, forA);
    expect(rotated.status).toBe(200);
    const secretA2 = rotated.body.data.webhookSecret as string;
    expect(secretA2).not.toBe(secretA);
    expect(await secretOf(sellerA)).toBe(secretA2);
    const transfer = await post('/v1/trdp/transfers', { to: sellerA, amount: 10, description: 'Goodwill bonus' });
    expect(transfer.status).toBe(201);
    const told = await waitFor(async () => toA.received.find((c) => json(c).status === 'TRANSFER_CREATED'), "the seller's TRANSFER_CREATED");
    expect(json(told)).toMatchObject({ transferId: transfer.body.data.transferId, destination: sellerA, amount: 10 });
    expect(signedWith(secretA2, told)).toBe(true);
    expect(signedWith(secretA, told)).toBe(false);

    // The seller's own endpoint had all of its own, nothing of the other seller's.
    await waitFor(async () => statuses(aHooks).includes('TRANSFER_CREATED'), "the seller's endpoint to hear of the transfer");
    expect(statuses(aHooks).sort()).toEqual(['HELD', 'PAYOUT_PAID', 'RELEASED', 'TRANSFER_CREATED']);
    // Its payout under the eventId the platform's endpoint was sent: one event to a receiver behind both.
    expect(json(aHooks.received.find((c) => json(c).status === 'PAYOUT_PAID')!).eventId).toBe(listed.id);
    expect(aHooks.received.every((c) => signedWith(aEndpoint.body.data.secret, c) && !c.body.includes(sellerB))).toBe(true);
    // The seller's deliveries are in its own log, acting for it.
    const logged = (await get(`/v1/trdp/callbacks?orderId=${escrowId}`, forA)).body.data as { url: string; merchantId?: string }[];
    expect(logged.filter((d) => d.url === toA.url)).toHaveLength(2);
  });

  it('tells a seller after a reversal what its balance gave (the net debit) beside the gross refunded, and the platform the same of the allocation', async () => {
    const [toPlatform, toSeller] = [await receiver(), await receiver()];
    const seller = await account('Eleni Haile', toSeller.url);
    const created = await post('/v1/trdp/escrow/order', escrowRequest({ amount: 1500, callbackURL: toPlatform.url, allocations: [{ merchantId: seller, amount: 1200, fee: 120 }, { merchantId: platform.merchantId, amount: 300 }] }));
    const { escrowId } = created.body.data;
    await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: seller })).status).toBe(200);
    const balance = async () => (await get('/v1/trdp/balance', { 'x-account-id': seller })).body.data.available as number;
    await waitFor(async () => (await balance()) === 1080, 'the seller to be credited its net 1,080');

    const reversed = await post(`/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: seller, reason: 'The customer returned the order', refundFee: true });
    expect(reversed.status).toBe(201);
    expect(reversed.body.data).toMatchObject({ amount: 1200, feeReturned: 120, merchantDebited: 1080 });
    const refundedTo = (r: CallbackReceiver) => r.received.map(json).find((p) => p.escrowId === escrowId && p.status === 'REFUNDED');
    const toldSeller = await waitFor(async () => refundedTo(toSeller), "the seller's REFUNDED callback");
    expect(toldSeller).toMatchObject({
      accountId: seller,
      amount: 1200,
      merchantDebited: 1080,
      feeReturned: 120,
      message: '1200 ETB of yours was refunded to the customer after its release: 1080 ETB taken from your balance, 120 ETB of the fee given back by the platform',
      allocations: [{ merchantId: seller, amount: 1200, merchantDebited: 1080, feeReturned: 120 }],
    });
    // What the callback says the seller gave is what left its balance.
    expect(await balance()).toBe(0);
    const toldPlatform = await waitFor(async () => refundedTo(toPlatform), "the platform's REFUNDED callback");
    expect(toldPlatform).toMatchObject({ amount: 1200, allocations: [{ merchantId: seller, amount: 1200, merchantDebited: 1080, feeReturned: 120 }] });
    expect(toldPlatform).not.toHaveProperty('merchantDebited');
  });

  it('lists a seller’s own events when acting for it, with its share only', async () => {
    const [toA, toB] = [await receiver(), await receiver()];
    const sellerA = await account('Chaltu Bekele', toA.url);
    const sellerB = await account('Dawit Alemu', toB.url);
    const created = await post('/v1/trdp/escrow/order', escrowRequest({ amount: 1000.5, allocations: [{ merchantId: sellerA, amount: 700.5 }, { merchantId: sellerB, amount: 300 }] }));
    const { escrowId } = created.body.data;
    await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: sellerB });

    const eventsOf = (extra: Record<string, string>) => get('/v1/trdp/events?order=asc&limit=100', extra);
    const forB = await waitFor(async () => {
      const listed = (await eventsOf({ 'x-account-id': sellerB })).body.data.events as { type: string; payload: Record<string, any> }[];
      return listed.some((e) => e.type === 'RELEASED') && listed;
    }, "the seller's events");
    // ACCOUNT_UPDATED is the platform's: the seller's list has its money alone.
    expect(forB.map((e) => e.type)).toEqual(['HELD', 'RELEASED']);
    expect(forB.every((e) => e.payload.accountId === sellerB && !JSON.stringify(e.payload).includes(sellerA))).toBe(true);
    const forA = (await eventsOf({ 'x-account-id': sellerA })).body.data.events as { type: string; payload: Record<string, any> }[];
    expect(forA.map((e) => [e.type, e.payload.amount])).toEqual([['HELD', 700.5]]);
    // The platform's own list is unchanged: the escrow's PAID and RELEASED as ever, and its accounts' changes.
    const mine = (await eventsOf({})).body.data.events as { type: string; payload: Record<string, any> }[];
    expect(mine.filter((e) => e.payload.escrowId === escrowId).map((e) => e.type)).toEqual(['PAID', 'RELEASED']);
    expect(mine.filter((e) => e.type === 'ACCOUNT_UPDATED').map((e) => e.payload.accountId)).toEqual(expect.arrayContaining([sellerA, sellerB]));
    // Another platform's account is not found.
    expect((await eventsOf({ 'x-account-id': `acct_${'0'.repeat(32)}` })).status).toBe(404);
  });
});
