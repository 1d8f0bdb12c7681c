import { PaymentProviders, type SandboxProvider, type TransferStatus } from '@app/payments';
import { type RunningApp, startApp } from '../support/app';
import { escrowRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/** Neither a reconcile pass nor a provider question comes during these tests: an hour away. */
const NO_RECONCILER = { RECONCILE_INTERVAL_MS: '3600000', PROVIDER_RECONCILE_AFTER_MS: '3600000' };

async function payoutScenario(running: RunningApp) {
  const merchant = await registerMarketplace(running.baseUrl, 'Sandbox Merchant');
  const headers = { 'x-api-secret': merchant.apiSecret };
  const post = (path: string, body: unknown = {}) => call(running.baseUrl, 'POST', path, { body, headers });
  const get = (path: string) => call(running.baseUrl, 'GET', path, { headers });
  const escrowIn = (escrowId: string, status: string) => waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data?.status === status, `escrow ${escrowId} to be ${status}`);
  const payoutIn = (payoutId: string, status: string) =>
    waitFor(async () => {
      const payout = (await get(`/v1/trdp/payouts/${payoutId}`)).body.data;
      return payout?.status === status && payout;
    }, `payout ${payoutId} to be ${status}`);

  /** An escrow paid at the sandbox; its escrow id. */
  const paidEscrow = async (allocations: unknown[]) => {
    const created = await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }));
    const { escrowId } = created.body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await escrowIn(escrowId, 'HELD');
    return escrowId as string;
  };

  /** 600.50 ETB released to the marketplace itself and paid out to a bank account the sandbox pays; the payout's id. */
  const requestPayout = async () => {
    const escrowId = await paidEscrow([{ merchantId: merchant.merchantId, amount: 600.5 }, { merchantId: merchant.courier1, amount: 400 }]);
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.merchantId })).status).toBe(200);
    expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Sandbox Merchant' })).status).toBe(200);
    const requested = await post('/v1/trdp/payouts');
    expect(requested.status).toBe(201);
    return requested.body.data.payoutId as string;
  };
  return { merchant: merchant as TestMarketplace, post, paidEscrow, escrowIn, payoutIn, requestPayout };
}

/**
 * A sandbox payout, refund or payment settles within the sandbox's delay (SANDBOX_DELAY_MS), as a real
 * provider's answer would come, not at the reconciler's next question: here no reconcile pass or
 * question comes for an hour, so only the sandbox's own timing can settle them.
 */
describe('sandbox settlement within its delay', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '300', ...NO_RECONCILER } });
  });
  afterAll(() => running?.close());

  it('pays a payout out when the sandbox settles its transfer', async () => {
    const scenario = await payoutScenario(running);
    const payoutId = await scenario.requestPayout();
    expect(await scenario.payoutIn(payoutId, 'PAID')).toMatchObject({ amount: 600.5, paidAt: expect.any(String), providerReference: expect.stringMatching(/^SBX-T-/) });
  });

  it('completes a refund when the sandbox settles it', async () => {
    const scenario = await payoutScenario(running);
    const escrowId = await scenario.paidEscrow([{ merchantId: scenario.merchant.seller1, amount: 600.5 }, { merchantId: scenario.merchant.courier1, amount: 400 }]);
    expect((await scenario.post(`/v1/trdp/escrow/${escrowId}/cancel`)).status).toBe(200);
    await scenario.escrowIn(escrowId, 'REFUNDED');
  });
});

describe('a sandbox payout whose settled answer is lost', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', RECONCILE_INTERVAL_MS: '200', PROVIDER_RECONCILE_AFTER_MS: '200' } });
  });
  afterAll(() => running?.close());

  it('is paid by the reconciler’s question', async () => {
    const provider = running.app.get(PaymentProviders).forMode('test') as SandboxProvider;
    // The first time the sandbox says a transfer is settled, the answer never arrives: the check at the
    // sandbox's delay learns nothing, and only the reconciler's later question can find the outcome. The
    // transfer's own answer counts too: with the reconciler this eager, a question can find the payout
    // SENT before the sandbox recorded its transfer, and the transfer handed over again (the same
    // reference, so the same transfer) answers for it.
    let lost = 0;
    const losingTheFirstSettled = async (status: Promise<TransferStatus>): Promise<TransferStatus> => {
      const answer = await status;
      if (answer.state !== 'succeeded' || lost > 0) return answer;
      lost += 1;
      return { state: 'pending' };
    };
    const asked = provider.transferStatus.bind(provider);
    const sent = provider.transfer.bind(provider);
    provider.transferStatus = (reference) => losingTheFirstSettled(asked(reference));
    provider.transfer = (request) => losingTheFirstSettled(sent(request));
    const scenario = await payoutScenario(running);
    const payoutId = await scenario.requestPayout();
    await scenario.payoutIn(payoutId, 'PAID');
    expect(lost).toBe(1);
  });
});
