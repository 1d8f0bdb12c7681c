import type { ApiKillWarning } from './api-kill-warning';
import { clientId, type RecordingClient, type Reply } from './client';
import type { LoadWindow } from './faults';
import type { ChaosMode, CustomerPhones } from './provider';

export interface ChaosMerchant {
  merchantId: string;
  /** A tenant of one mode (docs/concepts/modes.md): its money moves through that mode's provider, its customers pay from that provider's phones. */
  mode: ChaosMode;
  phones: CustomerPhones;
  apiSecret: string;
  callbackUrl: string;
  /** The platform's seller accounts (chaos/src/participants.ts). */
  sellers: ChaosSeller[];
}

export interface ChaosSeller {
  accountId: string;
  /** As the account's creation answered: the sandbox verified it at once, or it waits for a review that never comes. */
  verified: boolean;
}


const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const chance = (p: number) => Math.random() < p;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const etb = (santim: number) => santim / 100;

/**
 * One customer journey after another, for as long as the load lasts (the faults may extend it), against a
 * randomly chosen merchant of either mode: test and live tenants side by side, each dealing with its own mode's others only.
 */
export async function runClient(client: RecordingClient, merchants: ChaosMerchant[], load: LoadWindow, apiKills: ApiKillWarning): Promise<void> {
  const journeys = [
    paidOrder,
    paidOrder,
    failedOrder,
    escrowJourney,
    escrowJourney,
    escrowJourney,
    cancelledUnpaidEscrow,
    expiringEscrow,
    refusedEscrow,
    escrowCancelledAroundApiKill,
    marketplaceEscrow,
    marketplaceEscrow,
    refundedOrder,
    payOut,
    returnAfterRelease,
    returnAfterRelease,
    transfer,
    sellerPayout,
  ];
  while (Date.now() < load.until) {
    const merchant = pick(merchants);
    await pick(journeys)(new Journey(client, merchant, merchants.filter((m) => m !== merchant && m.mode === merchant.mode), apiKills));
  }
}

class Journey {
  constructor(
    private readonly client: RecordingClient,
    readonly merchant: ChaosMerchant,
    /** The run's other merchants of its mode: registered and linked to this one, so an escrow may allocate to them too. */
    readonly others: ChaosMerchant[],
    readonly apiKills: ApiKillWarning,
  ) {}

  get phones(): CustomerPhones {
    return this.merchant.phones;
  }

  private headers() {
    return { 'x-api-secret': this.merchant.apiSecret };
  }

  /** Who an allocation may pay: the platform's sellers, another registered merchant linked to it (participants.ts), the platform itself. */
  private payees(): string[] {
    const candidates = [...this.merchant.sellers.map((s) => s.accountId), this.merchant.merchantId, ...(this.others.length > 0 ? [pick(this.others).merchantId] : [])];
    return candidates.sort(() => Math.random() - 0.5);
  }

  createOrder(phone: string, expiredAt?: string, fee?: number): Promise<Reply> {
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
        ...(fee !== undefined ? { fee } : {}),
      },
    });
  }

  createEscrow(phone: string, options: { expiredAt?: string; breakSum?: boolean; autoReleaseAt?: string } = {}): Promise<Reply> {
    const payees = this.payees();
    const shares = Array.from({ length: Math.min(payees.length, 2 + Math.floor(Math.random() * 3)) }, () => 100 + Math.floor(Math.random() * 200_000));
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
        // Some allocations pay the marketplace a fee (up to a fifth), earned as they are released.
        allocations: shares.map((share, i) => ({ merchantId: payees[i], amount: etb(share), ...(chance(0.5) ? { fee: etb(Math.floor((share * Math.random()) / 5)) } : {}) })),
        callbackURL: this.merchant.callbackUrl,
        metadata: { journey: 'escrow' },
        ...(options.expiredAt ? { expiredAt: options.expiredAt } : {}),
        ...(options.autoReleaseAt ? { autoReleaseAt: options.autoReleaseAt } : {}),
      },
    });
  }

  /** What the merchant's paid orders left in its payable, paid out (409 when nothing is left). */
  requestPayout(): Promise<Reply> {
    // The payout's own stream is named by its answer (checks.ts createdStream).
    return this.client.send({ kind: 'payout', method: 'POST', path: '/v1/trdp/payouts', headers: this.headers(), body: {}, streamId: `payout-books-${this.merchant.merchantId}` });
  }

  /** What a seller account has, paid out at its request by the platform (409 when it may not be paid or has nothing). */
  requestSellerPayout(accountId: string): Promise<Reply> {
    return this.client.send({
      kind: 'payout',
      method: 'POST',
      path: '/v1/trdp/payouts',
      headers: { ...this.headers(), 'x-account-id': accountId },
      body: {},
      streamId: `payout-books-${accountId}`,
    });
  }

  /** A return after release: `amount` ETB (all it may still take back without one) of what an allocation released, back to the customer. */
  reverse(escrowId: string, merchantId: string, options: { amount?: number; refundFee: boolean }): Promise<Reply> {
    return this.client.send({
      kind: 'reversal',
      method: 'POST',
      path: `/v1/trdp/escrow/${escrowId}/reversals`,
      headers: this.headers(),
      body: { merchantId, reason: 'chaos: returned after delivery', refundFee: options.refundFee, ...(options.amount === undefined ? {} : { amount: options.amount }) },
      streamId: `escrow-${escrowId}`,
    });
  }

  /** Money between the platform and one of its sellers: a bonus `to` it, or a penalty `from` it (which may take it negative). */
  transfer(direction: 'to' | 'from', accountId: string, amount: number, allowNegative: boolean): Promise<Reply> {
    return this.client.send({
      kind: 'transfer',
      method: 'POST',
      path: '/v1/trdp/transfers',
      headers: this.headers(),
      body: { [direction]: accountId, amount, description: direction === 'to' ? 'Chaos bonus' : 'Chaos penalty', ...(allowNegative ? { allowNegative } : {}) },
    });
  }

  reverseTransfer(transferId: string, amount?: number): Promise<Reply> {
    return this.client.send({
      kind: 'transfer-reversal',
      method: 'POST',
      path: `/v1/trdp/transfers/${transferId}/reversals`,
      headers: this.headers(),
      body: amount === undefined ? {} : { amount },
      streamId: `transfer-${transferId}`,
    });
  }

  /** Part (`amount` ETB) or all of a paid order back to the customer. */
  refundOrder(orderId: string, amount?: number): Promise<Reply> {
    return this.client.send({
      kind: 'order-refund',
      method: 'POST',
      path: `/v1/trdp/order/${orderId}/refund`,
      headers: this.headers(),
      body: { ...(amount === undefined ? {} : { amount }), reason: 'chaos: returned' },
      streamId: `order-${orderId}`,
    });
  }

  moveAutoRelease(escrowId: string, autoReleaseAt: string): Promise<Reply> {
    return this.client.send({
      kind: 'auto-release',
      method: 'POST',
      path: `/v1/trdp/escrow/${escrowId}/auto-release`,
      headers: this.headers(),
      body: { autoReleaseAt },
      streamId: `escrow-${escrowId}`,
    });
  }

  dispute(escrowId: string, merchantId?: string): Promise<Reply> {
    return this.client.send({
      kind: 'dispute',
      method: 'POST',
      path: `/v1/trdp/escrow/${escrowId}/dispute`,
      headers: this.headers(),
      body: { ...(merchantId ? { merchantId } : {}), reason: 'chaos: buyer disputes' },
      streamId: `escrow-${escrowId}`,
    });
  }

  resolveDispute(escrowId: string, merchantId: string, release: number, refund: number): Promise<Reply> {
    return this.client.send({
      kind: 'resolve-dispute',
      method: 'POST',
      path: `/v1/trdp/escrow/${escrowId}/dispute/resolve`,
      headers: this.headers(),
      body: { merchantId, release, refund, reason: 'chaos: split' },
      streamId: `escrow-${escrowId}`,
    });
  }

  /** The customer's side: the checkout page's "Pay" (the sandbox answers a moment later). */
  pay(streamId: string, id: string): Promise<Reply> {
    return this.client.send({ kind: 'pay', method: 'POST', path: `/checkout/${id}/pay`, streamId });
  }

  sandboxComplete(streamId: string, id: string, outcome: 'PAID' | 'FAILED'): Promise<Reply> {
    return this.client.send({ kind: 'sandbox-complete', method: 'POST', path: `/v1/sandbox/orders/${id}/complete`, headers: this.headers(), body: { outcome }, streamId });
  }

  /** All the allocation still holds, or `amount` ETB of it. */
  release(escrowId: string, merchantId: string, amount?: number): Promise<Reply> {
    return this.client.send({
      kind: 'release',
      method: 'POST',
      path: `/v1/trdp/escrow/${escrowId}/release`,
      headers: this.headers(),
      body: amount === undefined ? { merchantId } : { merchantId, amount },
      streamId: `escrow-${escrowId}`,
      allocationMerchantId: merchantId,
    });
  }

  /** `amount` ETB of an allocation (all it holds without one) back to the customer; the others stay held. */
  refund(escrowId: string, merchantId: string, amount?: number): Promise<Reply> {
    return this.client.send({
      kind: 'refund',
      method: 'POST',
      path: `/v1/trdp/escrow/${escrowId}/refund`,
      headers: this.headers(),
      body: { ...(amount === undefined ? { merchantId } : { merchantId, amount }), reason: 'chaos: vendor could not deliver' },
      streamId: `escrow-${escrowId}`,
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
  const created = await journey.createOrder(journey.phones.pays);
  const orderId = created.body?.data?.order_id as string | undefined;
  if (!orderId) return;
  if (chance(0.5)) await journey.pay(`order-${orderId}`, orderId);
  else await journey.sandboxComplete(`order-${orderId}`, orderId, 'PAID');
  await journey.settled(orderId);
}

async function failedOrder(journey: Journey): Promise<void> {
  const created = await journey.createOrder(journey.phones.insufficientFunds);
  const orderId = created.body?.data?.order_id as string | undefined;
  if (!orderId) return;
  await journey.pay(`order-${orderId}`, orderId);
  await journey.settled(orderId);
}

/**
 * Paid, then some allocations released, some in two parts (one of them again: a refused write), then
 * sometimes cancelled (refunds of what is still held, whole or the rest of a partial release).
 */
async function escrowJourney(journey: Journey): Promise<void> {
  const created = await journey.createEscrow(journey.phones.pays);
  const escrow = created.body?.data as { escrowId: string; allocations: { merchantId: string; amount: number }[] } | undefined;
  if (!escrow?.escrowId) return;
  const stream = `escrow-${escrow.escrowId}`;
  if (chance(0.5)) await journey.pay(stream, escrow.escrowId);
  else await journey.sandboxComplete(stream, escrow.escrowId, 'PAID');
  if ((await journey.settled(escrow.escrowId)) !== 'PAID') return;
  const toRelease = escrow.allocations.filter(() => chance(0.6));
  const half = (allocation: { amount: number }) => Math.floor(Math.round(allocation.amount * 100) / 2) / 100;
  for (const allocation of toRelease) {
    // Half of it (in whole santim) first, now and then, released or refunded; the rest below, or by the cancel's refund.
    if (chance(0.2)) await journey.refund(escrow.escrowId, allocation.merchantId, half(allocation));
    else if (chance(0.3)) await journey.release(escrow.escrowId, allocation.merchantId, half(allocation));
    if (chance(0.8)) await journey.release(escrow.escrowId, allocation.merchantId);
  }
  // One vendor could not deliver: its whole part goes back, the others' stays held.
  const untouched = escrow.allocations.find((a) => !toRelease.includes(a));
  if (untouched && chance(0.3)) await journey.refund(escrow.escrowId, untouched.merchantId);
  if (toRelease.length > 0 && chance(0.2)) await journey.release(escrow.escrowId, toRelease[0].merchantId);
  if (toRelease.length < escrow.allocations.length && chance(0.4)) await journey.cancel(escrow.escrowId);
  await journey.getEscrow(escrow.escrowId);
}

/**
 * Paid, then cancelled just before or while an API is killed: the refund is requested then, and the
 * provider's confirmation of it falls due while that API is down (it posts its notification once).
 */
async function escrowCancelledAroundApiKill(journey: Journey): Promise<void> {
  const created = await journey.createEscrow(journey.phones.pays);
  const escrowId = created.body?.data?.escrowId as string | undefined;
  if (!escrowId) return;
  if (chance(0.5)) await journey.pay(`escrow-${escrowId}`, escrowId);
  else await journey.sandboxComplete(`escrow-${escrowId}`, escrowId, 'PAID');
  if ((await journey.settled(escrowId)) !== 'PAID') return;
  // Without an API kill announced within the wait (none is while PostgreSQL is away, or once the load ends), cancel all the same.
  if (await journey.apiKills.next(15_000)) await sleep(Math.random() * 1500);
  await journey.cancel(escrowId);
  await journey.getEscrow(escrowId);
}

async function cancelledUnpaidEscrow(journey: Journey): Promise<void> {
  const created = await journey.createEscrow(journey.phones.pays);
  const escrowId = created.body?.data?.escrowId as string | undefined;
  const allocations = created.body?.data?.allocations as { merchantId: string }[] | undefined;
  if (!escrowId || !allocations) return;
  await journey.cancel(escrowId);
  await journey.release(escrowId, allocations[0].merchantId);
}

/**
 * A marketplace's escrow: released automatically a few seconds after its expiry (now and then the
 * instant is moved), part released by hand first, one allocation disputed and the dispute resolved with a split (the
 * resolution of an allocation the automatic release already emptied is refused, and that is fine).
 */
async function marketplaceEscrow(journey: Journey): Promise<void> {
  const now = Date.now();
  const created = await journey.createEscrow(journey.phones.pays, {
    expiredAt: new Date(now + 4_000).toISOString(),
    autoReleaseAt: new Date(now + 5_000 + Math.random() * 10_000).toISOString(),
  });
  const escrow = created.body?.data as { escrowId: string; allocations: { merchantId: string; amount: number }[] } | undefined;
  if (!escrow?.escrowId) return;
  await journey.sandboxComplete(`escrow-${escrow.escrowId}`, escrow.escrowId, 'PAID');
  if ((await journey.settled(escrow.escrowId, 4_000)) !== 'PAID') return;
  const [first, second] = escrow.allocations;
  if (chance(0.5)) await journey.release(escrow.escrowId, first.merchantId, Math.floor(Math.round(first.amount * 100) / 3) / 100);
  if (chance(0.2)) await journey.moveAutoRelease(escrow.escrowId, new Date(Date.now() + 2_000 + Math.random() * 5_000).toISOString());
  if (!chance(0.7)) return;
  await journey.dispute(escrow.escrowId, second.merchantId);
  const read = await journey.getEscrow(escrow.escrowId);
  const frozen = (read.body?.data?.allocations as { merchantId: string; frozen: number }[] | undefined)?.find((a) => a.merchantId === second.merchantId)?.frozen;
  if (!frozen) return;
  const release = Math.floor(Math.round(frozen * 100) * Math.random()) / 100;
  await journey.resolveDispute(escrow.escrowId, second.merchantId, release, Math.round(frozen * 100 - release * 100) / 100);
}

/** A paid order with a platform fee, refunded in part and sometimes in full. */
async function refundedOrder(journey: Journey): Promise<void> {
  const created = await journey.createOrder(journey.phones.pays, undefined, 5);
  const orderId = created.body?.data?.order_id as string | undefined;
  if (!orderId) return;
  await journey.sandboxComplete(`order-${orderId}`, orderId, 'PAID');
  if ((await journey.settled(orderId)) !== 'PAID') return;
  await journey.refundOrder(orderId, 5.5);
  if (chance(0.5)) await journey.refundOrder(orderId);
}

/**
 * A paid order, then a payout of whatever the merchant has: payouts run while processes die and orders
 * are refunded; sometimes two at once for the same merchant, which its books decide one after the other
 * (one pays the balance, the other what is left or nothing).
 */
async function payOut(journey: Journey): Promise<void> {
  const created = await journey.createOrder(journey.phones.pays);
  const orderId = created.body?.data?.order_id as string | undefined;
  if (orderId) {
    await journey.sandboxComplete(`order-${orderId}`, orderId, 'PAID');
    await journey.settled(orderId);
  }
  await Promise.all(chance(0.5) ? [journey.requestPayout(), journey.requestPayout()] : [journey.requestPayout()]);
}

/** The customer never answers; the scheduler expires the escrow, and a payment arriving later is refunded. */
async function expiringEscrow(journey: Journey): Promise<void> {
  const created = await journey.createEscrow(journey.phones.neverAnswers, { expiredAt: new Date(Date.now() + 2000 + Math.random() * 3000).toISOString() });
  const escrowId = created.body?.data?.escrowId as string | undefined;
  if (!escrowId) return;
  await journey.pay(`escrow-${escrowId}`, escrowId);
  await journey.settled(escrowId, 12_000);
  if (chance(0.5)) await journey.sandboxComplete(`escrow-${escrowId}`, escrowId, 'PAID');
}

/** Allocations that do not add up: a 400, and nothing written. */
async function refusedEscrow(journey: Journey): Promise<void> {
  await journey.createEscrow(journey.phones.pays, { breakSum: true });
}

/**
 * A return after release: an allocation released (and now and then paid out at once, so the money is
 * gone from the seller's balance), then taken back from it, with or without the platform's fee; now and
 * then two reversals of the same allocation at once, which the escrow decides one after the other.
 */
async function returnAfterRelease(journey: Journey): Promise<void> {
  const created = await journey.createEscrow(journey.phones.pays);
  const escrow = created.body?.data as { escrowId: string; allocations: { merchantId: string; amount: number }[] } | undefined;
  if (!escrow?.escrowId) return;
  await journey.sandboxComplete(`escrow-${escrow.escrowId}`, escrow.escrowId, 'PAID');
  if ((await journey.settled(escrow.escrowId)) !== 'PAID') return;
  const allocation = pick(escrow.allocations);
  if ((await journey.release(escrow.escrowId, allocation.merchantId)).status !== 200) return;
  const seller = journey.merchant.sellers.find((s) => s.accountId === allocation.merchantId);
  if (seller && chance(0.4)) await journey.requestSellerPayout(seller.accountId);
  const part = Math.floor(Math.round(allocation.amount * 100) * Math.random()) / 100;
  const refundFee = chance(0.5);
  if (chance(0.3)) await Promise.all([journey.reverse(escrow.escrowId, allocation.merchantId, { amount: part || undefined, refundFee }), journey.reverse(escrow.escrowId, allocation.merchantId, { refundFee })]);
  else await journey.reverse(escrow.escrowId, allocation.merchantId, chance(0.5) ? { refundFee } : { amount: part || undefined, refundFee });
  await journey.getEscrow(escrow.escrowId);
}

/** A bonus to a seller or a penalty from one (sometimes allowed to take it negative), and now and then part of it given back. */
async function transfer(journey: Journey): Promise<void> {
  const seller = pick(journey.merchant.sellers);
  const direction = chance(0.5) ? 'to' : 'from';
  const amount = (100 + Math.floor(Math.random() * 50_000)) / 100;
  const made = await journey.transfer(direction, seller.accountId, amount, direction === 'from' && chance(0.5));
  const transferId = made.body?.data?.transferId as string | undefined;
  if (!transferId || !chance(0.4)) return;
  await journey.reverseTransfer(transferId, chance(0.5) ? undefined : Math.floor(amount * 50) / 100 || undefined);
}

/** A seller's money asked for by its platform: paid when the seller is verified and has a positive balance, refused otherwise. */
async function sellerPayout(journey: Journey): Promise<void> {
  await journey.requestSellerPayout(pick(journey.merchant.sellers).accountId);
}
