/**
 * The first escrow with the typed client (libs/client): onboard a courier as one of the merchant's
 * accounts, create an escrow order split between the merchant and the courier, pay it as the sandbox customer would, release the merchant's share, list
 * the releases, and refund the courier's share to the customer. Each step prints one JSON line.
 *
 * Environment: BASE (the service, default http://localhost:3000), API_SECRET and MERCHANT_ID (a
 * merchant's; `eval "$(node scripts/demo-env.js)"` sets all three for the demo merchant of
 * `npm start`). Run by test/e2e/client.spec.ts.
 */
import { EscrowLedger, EscrowLedgerApiError, type EscrowResponse } from '../libs/client/src';

const base = process.env.BASE ?? 'http://localhost:3000';
const apiSecret = process.env.API_SECRET;
const merchantId = process.env.MERCHANT_ID;

const print = (step: string, fields: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ step, ...fields })}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  if (!apiSecret || !merchantId) throw new Error('Set API_SECRET and MERCHANT_ID (eval "$(node scripts/demo-env.js)" does for the demo merchant)');
  const ledger = new EscrowLedger({ baseUrl: base, apiSecret });

  /** The escrow once `done` holds: payment and refunds are confirmed by the provider after the request that asked for them. */
  const escrowWhen = async (escrowId: string, done: (escrow: EscrowResponse) => boolean): Promise<EscrowResponse> => {
    for (;;) {
      const { data } = await ledger.getEscrowByEscrowId({ path: { escrowId } });
      if (done(data)) return data;
      await pause(200);
    }
  };

  // An allocation names someone who can be paid: the courier is one of the merchant's accounts (the same reference again finds it).
  const courier = (await ledger.postAccounts({ body: { name: 'Kebede Delivery', type: 'individual', reference: 'courier-1' } })).data.accountId;
  const orderId = `client-example-${Date.now()}`;
  const created = await ledger.postEscrowOrder({
    body: {
      orderId,
      amount: 1500,
      currency: 'ETB',
      customerName: 'Abebe Kebede',
      customerPhoneNumber: '0911234567',
      items: [{ productId: 'sku-1', item_name: 'Coffee beans 1kg', quantity: 2, unit_price: 750 }],
      allocations: [
        { merchantId, amount: 1000 },
        { merchantId: courier, amount: 500 },
      ],
    },
  });
  const { escrowId } = created.data;
  print('created', { escrowId, orderId, status: created.data.status, paymentUrl: created.data.paymentUrl });

  // What the customer does on the checkout page, done by the sandbox provider's test route.
  await ledger.postSandboxOrdersByIdComplete({ path: { id: orderId }, body: { outcome: 'PAID' } });
  const held = await escrowWhen(escrowId, (escrow) => escrow.status === 'HELD');
  print('paid', { escrowId, status: held.status });

  const released = await ledger.postEscrowByEscrowIdRelease({ path: { escrowId }, body: { merchantId } });
  print('released', { escrowId, status: released.data.status });

  const { data: listed } = await ledger.getEscrowByEscrowIdReleases({ path: { escrowId } });
  print('releases', { escrowId, releases: listed.releases.map((release) => ({ merchantId: release.merchantId, amount: release.amount })) });

  await ledger.postEscrowByEscrowIdRefund({ path: { escrowId }, body: { merchantId: courier, reason: 'The courier could not deliver' } });
  const refunded = await escrowWhen(escrowId, (escrow) => escrow.allocations.find((allocation) => allocation.merchantId === courier)?.status === 'REFUNDED');
  print('refunded', { escrowId, status: refunded.status, allocations: refunded.allocations.map((a) => ({ merchantId: a.merchantId, status: a.status })) });

  // A refusal is an exception carrying the service's error code: the merchant's share was released already.
  try {
    await ledger.postEscrowByEscrowIdRelease({ path: { escrowId }, body: { merchantId } });
  } catch (error) {
    if (!(error instanceof EscrowLedgerApiError)) throw error;
    print('refused', { status: error.status, code: error.code });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
