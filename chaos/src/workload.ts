import { clientId, type RecordingClient, type Reply } from './client';

export interface ChaosMerchant {
  merchantId: string;
  apiSecret: string;
  callbackUrl: string;
}

const PHONES = { pays: '+251900000000', insufficientFunds: '+251900000001', neverAnswers: '+251900000002' };

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const chance = (p: number) => Math.random() < p;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const etb = (santim: number) => santim / 100;

/** One customer journey after another, for as long as the run lasts, against a randomly chosen merchant. */
export async function runClient(client: RecordingClient, merchants: ChaosMerchant[], until: number): Promise<void> {
  const journeys = [paidOrder, paidOrder, failedOrder, escrowJourney, escrowJourney, escrowJourney, cancelledUnpaidEscrow, expiringEscrow, refusedEscrow];
  while (Date.now() < until) await pick(journeys)(new Journey(client, pick(merchants)));
}

class Journey {
  constructor(
    private readonly client: RecordingClient,
    readonly merchant: ChaosMerchant,
  ) {}

  private headers() {
    return { 'x-api-secret': this.merchant.apiSecret };
  }

  createOrder(phone: string, expiredAt?: string): Promise<Reply> {
    const santim = 1000 + Math.floor(Math.random() * 500_000);
    return this.client.send({
      kind: 'create-order',
      method: 'POST',
      path: '/v1/trdp/order',
      headers: this.headers(),
      body: {
        amount: etb(santim),
        currency: 'ETB',
        description: 'Chaos order',
        customerName: 'Almaz Tesfaye',
        customerPhoneNumber: phone,
        items: [{ productId: 'sku-1', item_name: 'Injera basket', quantity: 1, unit_price: etb(santim) }],
        callbackURL: this.merchant.callbackUrl,
        metadata: { journey: 'order' },
        ...(expiredAt ? { expiredAt } : {}),
      },
    });
  }

  createEscrow(phone: string, options: { expiredAt?: string; breakSum?: boolean } = {}): Promise<Reply> {
    const shares = Array.from({ length: 2 + Math.floor(Math.random() * 3) }, () => 100 + Math.floor(Math.random() * 200_000));
    const total = shares.reduce((sum, share) => sum + share, 0);
    return this.client.send({
      kind: 'create-escrow',
      method: 'POST',
      path: '/v1/trdp/escrow/order',
      headers: this.headers(),
      body: {
        orderId: clientId('chaos'),
        amount: etb(total + (options.breakSum ? 1 : 0)),
        currency: 'ETB',
        customerName: 'Abebe Kebede',
        customerPhoneNumber: phone,
        description: 'Chaos escrow',
        items: [{ productId: 'sku-2', item_name: 'Coffee 1kg', quantity: 1, unit_price: etb(total) }],
        allocations: shares.map((share, i) => ({ merchantId: `seller-${i + 1}`, amount: etb(share) })),
        callbackURL: this.merchant.callbackUrl,
        metadata: { journey: 'escrow' },
        ...(options.expiredAt ? { expiredAt: options.expiredAt } : {}),
      },
    });
  }

  /** The customer's side: the checkout page's "Pay" (the sandbox answers a moment later). */
  pay(streamId: string, id: string): Promise<Reply> {
    return this.client.send({ kind: 'pay', method: 'POST', path: `/checkout/${id}/pay`, streamId });
  }

  sandboxComplete(streamId: string, id: string, outcome: 'PAID' | 'FAILED'): Promise<Reply> {
    return this.client.send({ kind: 'sandbox-complete', method: 'POST', path: `/v1/sandbox/orders/${id}/complete`, headers: this.headers(), body: { outcome }, streamId });
  }

  release(escrowId: string, merchantId: string): Promise<Reply> {
    return this.client.send({
      kind: 'release',
      method: 'POST',
      path: `/v1/trdp/escrow/${escrowId}/release`,
      headers: this.headers(),
      body: { merchantId },
      streamId: `escrow-${escrowId}`,
      allocationMerchantId: merchantId,
    });
  }

  cancel(escrowId: string): Promise<Reply> {
    return this.client.send({ kind: 'cancel', method: 'POST', path: `/v1/trdp/escrow/${escrowId}/cancel`, headers: this.headers(), body: { reason: 'chaos' }, streamId: `escrow-${escrowId}` });
  }

  verify(orderId: string): Promise<Reply> {
    return this.client.send({ kind: 'read', method: 'POST', path: '/v1/trdp/verify', headers: this.headers(), body: { orderId } });
  }

  getEscrow(escrowId: string): Promise<Reply> {
    return this.client.send({ kind: 'read', method: 'GET', path: `/v1/trdp/escrow/${escrowId}`, headers: this.headers() });
  }

  /** Polls verify until the payment leaves PENDING (or gives up: the checks judge what happened). */
  async settled(orderId: string, timeoutMs = 10_000): Promise<string | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const status = (await this.verify(orderId)).body?.data?.status as string | undefined;
      if (status && status !== 'PENDING') return status;
      await sleep(300);
    }
    return undefined;
  }
}

async function paidOrder(journey: Journey): Promise<void> {
  const created = await journey.createOrder(PHONES.pays);
  const orderId = created.body?.data?.order_id as string | undefined;
  if (!orderId) return;
  if (chance(0.5)) await journey.pay(`order-${orderId}`, orderId);
  else await journey.sandboxComplete(`order-${orderId}`, orderId, 'PAID');
  await journey.settled(orderId);
}

async function failedOrder(journey: Journey): Promise<void> {
  const created = await journey.createOrder(PHONES.insufficientFunds);
  const orderId = created.body?.data?.order_id as string | undefined;
  if (!orderId) return;
  await journey.pay(`order-${orderId}`, orderId);
  await journey.settled(orderId);
}

/** Paid, then some allocations released (one of them twice: a refused write), then sometimes cancelled (refunds). */
async function escrowJourney(journey: Journey): Promise<void> {
  const created = await journey.createEscrow(PHONES.pays);
  const escrow = created.body?.data as { escrowId: string; allocations: { merchantId: string }[] } | undefined;
  if (!escrow?.escrowId) return;
  const stream = `escrow-${escrow.escrowId}`;
  if (chance(0.5)) await journey.pay(stream, escrow.escrowId);
  else await journey.sandboxComplete(stream, escrow.escrowId, 'PAID');
  if ((await journey.settled(escrow.escrowId)) !== 'PAID') return;
  const toRelease = escrow.allocations.filter(() => chance(0.6));
  for (const allocation of toRelease) await journey.release(escrow.escrowId, allocation.merchantId);
  if (toRelease.length > 0 && chance(0.2)) await journey.release(escrow.escrowId, toRelease[0].merchantId);
  if (toRelease.length < escrow.allocations.length && chance(0.4)) await journey.cancel(escrow.escrowId);
  await journey.getEscrow(escrow.escrowId);
}

async function cancelledUnpaidEscrow(journey: Journey): Promise<void> {
  const created = await journey.createEscrow(PHONES.pays);
  const escrowId = created.body?.data?.escrowId as string | undefined;
  if (!escrowId) return;
  await journey.cancel(escrowId);
  await journey.release(escrowId, 'seller-1');
}

/** The customer never answers; the scheduler expires the escrow, and a payment arriving later is refunded. */
async function expiringEscrow(journey: Journey): Promise<void> {
  const created = await journey.createEscrow(PHONES.neverAnswers, { expiredAt: new Date(Date.now() + 2000 + Math.random() * 3000).toISOString() });
  const escrowId = created.body?.data?.escrowId as string | undefined;
  if (!escrowId) return;
  await journey.pay(`escrow-${escrowId}`, escrowId);
  await journey.settled(escrowId, 12_000);
  if (chance(0.5)) await journey.sandboxComplete(`escrow-${escrowId}`, escrowId, 'PAID');
}

/** Allocations that do not add up: a 400, and nothing written. */
async function refusedEscrow(journey: Journey): Promise<void> {
  await journey.createEscrow(PHONES.pays, { breakSum: true });
}
