/**
 * A marketplace with the typed client (libs/client): customers buy from several sellers in one
 * checkout, a courier delivers, and the marketplace takes a 10% commission (docs/guides/marketplaces.md).
 * It onboards two sellers and a courier as its accounts (the sandbox verifies a TIN of 0000000001 at
 * once; the second seller waits for review), receives its callbacks on a webhook endpoint and verifies
 * each with the client's `verifyCallback`, takes a split checkout paid in the sandbox, releases every
 * share, takes part of one back after a return, reads the balances and pays each seller out. Each step
 * prints one JSON line.
 *
 * Environment: BASE (the service, default http://localhost:3000) and API_SECRET (the marketplace's;
 * `eval "$(node scripts/demo-env.js)"` sets both for the demo merchant of `npm start`). The callbacks
 * come to a server this program opens on 127.0.0.1, which the service allows with the sandbox
 * provider (CALLBACK_ALLOW_PRIVATE_URLS). Run by test/e2e/client.spec.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CallbackPayload, ConflictError, EscrowLedger, type EscrowResponse, verifyCallback } from '../libs/client/src';

const base = process.env.BASE ?? 'http://localhost:3000';
const apiSecret = process.env.API_SECRET;

const print = (step: string, fields: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ step, ...fields })}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `read` gives a value `done` accepts: what the provider confirms comes after the request that asked for it. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await pause(200);
  }
}

/** A callback receiver: keeps each payload whose signature verifies with the endpoint's secret, and answers 401 to any other. */
async function callbackReceiver() {
  const received: CallbackPayload[] = [];
  let secret = '';
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        received.push(verifyCallback(secret, request.headers, Buffer.concat(chunks)));
        response.writeHead(204).end();
      } catch {
        response.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`,
    useSecret: (endpointSecret: string) => (secret = endpointSecret),
    /** The first callback received of this status about this escrow or payout. */
    callback: async (status: string, about: string) => (await until(async () => received.find((payload) => payload.status === status && JSON.stringify(payload).includes(about)), Boolean))!,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  if (!apiSecret) throw new Error('Set API_SECRET (eval "$(node scripts/demo-env.js)" does for the demo merchant)');
  const platform = new EscrowLedger({ baseUrl: base, apiSecret });
  const receiver = await callbackReceiver();
  try {
    // Callbacks of the marketplace's escrows and payouts, to one endpoint with a secret of its own.
    const { data: endpoint } = await platform.postWebhookEndpoints({ body: { url: receiver.url, events: ['PAID', 'RELEASED', 'REFUNDED', 'PAYOUT_PAID'], description: 'Marketplace example' } });
    receiver.useSecret(endpoint.secret);
    print('endpoint', { endpointId: endpoint.endpointId, events: endpoint.events });

    // Onboarding: the sandbox verifies the TIN 0000000001 at once; the second seller has none yet and waits for review.
    const run = Date.now().toString(36);
    const onboard = async (name: string, reference: string, tin?: string) =>
      (await platform.postAccounts({ body: { name, type: 'individual', reference: `${reference}-${run}`, ...(tin ? { tin } : {}) } })).data;
    const coffee = await onboard('Abebe Coffee', 'seller-coffee', '0000000001');
    const crafts = await onboard('Tigist Crafts', 'seller-crafts');
    const courier = await onboard('Habesha Delivery', 'courier', '0000000001');
    print('onboarded', { accounts: [coffee, crafts, courier].map((account) => ({ accountId: account.accountId, name: account.name, status: account.status })) });

    // Where each seller is paid: acting for the account, in its legal name.
    for (const account of [coffee, crafts, courier]) {
      await platform.forAccount(account.accountId).postPayoutDestination({ body: { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: account.name } });
    }

    // One checkout: coffee and a basket from two sellers, delivered by the courier; the marketplace's 10% comes out of each share.
    const share = (account: { accountId: string }, amount: number) => ({ merchantId: account.accountId, amount, fee: amount / 10 });
    const { data: created } = await platform.postEscrowOrder({
      body: {
        orderId: `marketplace-${run}`,
        amount: 2000,
        currency: 'ETB',
        customerName: 'Abebe Kebede',
        customerPhoneNumber: '0911234567',
        items: [
          { productId: 'coffee-1kg', item_name: 'Coffee beans 1kg', quantity: 2, unit_price: 500 },
          { productId: 'basket', item_name: 'Mesob basket', quantity: 1, unit_price: 600 },
          { productId: 'delivery', item_name: 'Delivery', quantity: 1, unit_price: 400 },
        ],
        allocations: [share(coffee, 1000), share(crafts, 600), share(courier, 400)],
      },
    });
    const { escrowId } = created;
    print('checkout', { escrowId, amount: created.amount, allocations: created.allocations.map(({ merchantId, amount }) => ({ merchantId, amount })) });

    // What the customer does on the checkout page, done by the sandbox provider's test route; the PAID callback says it happened.
    await platform.postSandboxOrdersByIdComplete({ path: { id: escrowId }, body: { outcome: 'PAID' } });
    const paid = await receiver.callback('PAID', escrowId);
    print('paid', { escrowId, callback: paid.status, amount: paid.amount });

    // Delivered: every share released; each seller's money, less the fee, becomes its balance.
    let escrow: EscrowResponse = created as unknown as EscrowResponse;
    for (const account of [coffee, crafts, courier]) escrow = (await platform.postEscrowByEscrowIdRelease({ path: { escrowId }, body: { merchantId: account.accountId } })).data;
    print('released', { escrowId, status: escrow.status, allocations: escrow.allocations.map(({ merchantId, released, feeEarned }) => ({ merchantId, released, feeEarned })) });

    // A return after release: half of the basket's price goes back to the customer, and the marketplace gives back its fee's share.
    const { data: reversal } = await platform.postEscrowByEscrowIdReversals({ path: { escrowId }, body: { merchantId: crafts.accountId, amount: 300, reason: 'The basket came back damaged', refundFee: true } });
    const refunded = await receiver.callback('REFUNDED', escrowId);
    print('returned', { merchantId: reversal.merchantId, amount: reversal.amount, merchantDebited: reversal.merchantDebited, feeReturned: reversal.feeReturned, callback: refunded.status });

    const balance = async (ledger: Pick<EscrowLedger, 'getBalance'>) => (await until(() => ledger.getBalance(), ({ data }) => data.pending === 0)).data;
    const { feesEarned } = await balance(platform);
    const sellers = [];
    for (const account of [coffee, crafts, courier]) sellers.push({ accountId: account.accountId, available: (await balance(platform.forAccount(account.accountId))).available });
    print('balances', { feesEarned, sellers });

    // Payouts, seller by seller: a verified seller is paid; one still under review is refused with the reason's code.
    for (const account of [coffee, crafts, courier]) {
      const seller = platform.forAccount(account.accountId);
      try {
        const { data: requested } = await seller.postPayouts();
        const { data: payout } = await until(() => seller.getPayoutsByPayoutId({ path: { payoutId: requested.payoutId } }), ({ data }) => data.status === 'PAID' || data.status === 'FAILED');
        print('payout', { accountId: account.accountId, payoutId: payout.payoutId, amount: payout.amount, status: payout.status });
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        print('payout refused', { accountId: account.accountId, status: error.status, code: error.code });
      }
    }

    // Each callback above was taken only once its signature verified; a body changed on the way does not.
    const forged = await fetch(receiver.url, { method: 'POST', headers: { 'x-timestamp': String(Date.now()), 'x-signature': '0'.repeat(64) }, body: JSON.stringify({ ...paid, amount: 1 }) });
    print('forged callback', { status: forged.status });
  } finally {
    await receiver.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
