import { type RunningApp, startApp } from '../support/app';
import { createAccount, escrowRequest, orderRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call, type HttpResult } from '../support/http';
import { waitFor } from '../support/wait';

const ENV = { SANDBOX_DELAY_MS: '30' };
const ROUNDS = 6;

/**
 * A platform closes a seller account while money moves to or from it at the same instant (issue 42,
 * item 7), asked of two app instances on one PostgreSQL schema, round after round, each round on a new
 * account: the closing and a transfer to the account, a penalty from it, a transfer of all it holds or
 * the reversal of a transfer to it or of an allocation released to it are decided at the books where the account's money moves, so either the closing sees the movement and
 * is refused (ACCOUNT_NOT_SETTLED), or the movement sees the account closed and is refused with its own
 * code. Whichever came first, a closed account never holds money, nor owes any. An escrow naming the account is not
 * ordered with the closing (docs/guides/marketplaces.md, "Closing an account"): one made at the same
 * instant is left unpaid, for the platform to cancel.
 */
describe('closing an account while money moves to or from it', () => {
  let first: RunningApp;
  let second: RunningApp;
  let platform: TestMerchant;
  const headers = (accountId?: string) => ({ 'x-api-secret': platform.apiSecret, ...(accountId ? { 'x-account-id': accountId } : {}) });
  const post = (on: RunningApp, path: string, body: unknown) => call(on.baseUrl, 'POST', path, { body, headers: headers() });
  const get = (path: string, accountId?: string) => call(first.baseUrl, 'GET', path, { headers: headers(accountId) });
  const close = (on: RunningApp, accountId: string) => post(on, `/v1/trdp/accounts/${accountId}/close`, { reason: 'The seller left the marketplace' });
  /** The instances swap sides each round, so each request is decided in each process. */
  const sides = (round: number) => (round % 2 === 0 ? [first, second] : [second, first]);
  const outcome = (res: HttpResult) => [res.status, res.body.error?.code ?? null];
  /** The account's status and money as the API shows it, in santim. */
  const standing = async (accountId: string) => {
    const [account, balance] = await Promise.all([get(`/v1/trdp/accounts/${accountId}`), get('/v1/trdp/balance', accountId)]);
    const { available, onHold, pending } = balance.body.data as { available: number; onHold: number; pending: number };
    return { status: account.body.data.status as string, available: Math.round(available * 100), onHold: Math.round(onHold * 100), pending: Math.round(pending * 100) };
  };
  const closedHoldingNothing = { status: 'CLOSED', available: 0, onHold: 0, pending: 0 };
  /** The account as a refused closing leaves it: open, with what the movement made of its balance. */
  const openWith = async (accountId: string, available: number) => {
    const after = await standing(accountId);
    expect(after.status).not.toBe('CLOSED');
    expect(after.available).toBe(available);
  };

  /**
   * An account that was paid 10 ETB by an escrow's released allocation and moved it all out again: it
   * holds nothing, and the allocation can still be reversed (a return after the seller was paid).
   */
  const releasedAndMovedOut = async (name: string) => {
    const accountId = await createAccount(first.baseUrl, platform, name);
    const request = escrowRequest({ callbackURL: undefined, amount: 10, items: [{ productId: 'sku-1', item_name: 'Coffee', quantity: 1, unit_price: 10 }], allocations: [{ merchantId: accountId, amount: 10 }] });
    const created = await post(first, '/v1/trdp/escrow/order', request);
    expect(created.status).toBe(201);
    const { escrowId } = created.body.data as { escrowId: string };
    expect((await post(first, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(first, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: accountId })).status).toBe(200);
    await waitFor(async () => (await standing(accountId)).available === 1_000, 'the release in the account’s balance');
    expect((await post(first, '/v1/trdp/transfers', { from: accountId, amount: 10, description: `Moved ${name}` })).status).toBe(201);
    await waitFor(async () => (await standing(accountId)).available === 0, 'the release moved out again');
    return { accountId, escrowId };
  };
  const reverseAllocation = (on: RunningApp, escrowId: string, accountId: string) =>
    post(on, `/v1/trdp/escrow/${escrowId}/reversals`, { merchantId: accountId, reason: 'The customer returned the coffee' });
  /** The escrow's reversals as its view shows them: what was taken back from the account's allocation. */
  const reversedOf = async (escrowId: string) => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.allocations[0].reversed as number;

  beforeAll(async () => {
    first = await startApp({ env: ENV });
    second = await startApp({ env: ENV, schema: first.schema });
    platform = await registerMerchant(first.baseUrl, 'Closing Race Marketplace');
    // The platform's own money, which its transfers to the accounts spend.
    const order = await post(first, '/v1/trdp/order', orderRequest({ amount: 100, items: [{ productId: 'sku-1', item_name: 'Basket', quantity: 1, unit_price: 100 }] }));
    expect((await post(first, `/v1/sandbox/orders/${order.body.data.order_id}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get('/v1/trdp/balance')).body.data.available === 100, 'the order money in the platform’s balance');
  });
  afterAll(async () => {
    await second?.stop();
    await first?.close();
  });

  it('a transfer to the account: either it is made and the closing refused, or the account is closed and the transfer finds no party', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const accountId = await createAccount(first.baseUrl, platform, `to-${round}`);
      const [forClose, forTransfer] = sides(round);
      const [closing, transfer] = await Promise.all([close(forClose, accountId), post(forTransfer, '/v1/trdp/transfers', { to: accountId, amount: 1, description: `Bonus ${round}` })]);
      if (closing.status === 200) {
        expect(outcome(transfer)).toEqual([404, 'UNKNOWN_TRANSFER_PARTY']);
        expect(await standing(accountId)).toEqual(closedHoldingNothing);
      } else {
        expect(outcome(closing)).toEqual([409, 'ACCOUNT_NOT_SETTLED']);
        expect(closing.body.error.message).toContain('still has 1 ETB available');
        expect(transfer.status).toBe(201);
        await openWith(accountId, 100);
      }
    }
  });

  it('a penalty from the account: either it is taken and the closing refused, or the account is closed and the penalty refused ACCOUNT_CLOSED', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const accountId = await createAccount(first.baseUrl, platform, `penalty-${round}`);
      const [forClose, forTransfer] = sides(round);
      const [closing, penalty] = await Promise.all([
        close(forClose, accountId),
        post(forTransfer, '/v1/trdp/transfers', { from: accountId, amount: 1, allowNegative: true, description: `Penalty ${round}` }),
      ]);
      if (closing.status === 200) {
        expect(outcome(penalty)).toEqual([409, 'ACCOUNT_CLOSED']);
        expect(await standing(accountId)).toEqual(closedHoldingNothing);
      } else {
        expect(outcome(closing)).toEqual([409, 'ACCOUNT_NOT_SETTLED']);
        expect(closing.body.error.message).toContain('still has -1 ETB available');
        expect(penalty.status).toBe(201);
        await openWith(accountId, -100);
      }
    }
  });

  it('a transfer of all the account holds: it is always made, and the account is closed only once it holds nothing', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const accountId = await createAccount(first.baseUrl, platform, `out-${round}`);
      expect((await post(first, '/v1/trdp/transfers', { to: accountId, amount: 1, description: `Earnings ${round}` })).status).toBe(201);
      await waitFor(async () => (await standing(accountId)).available === 100, 'the transfer in the account’s balance');
      const [forClose, forTransfer] = sides(round);
      const [closing, transfer] = await Promise.all([close(forClose, accountId), post(forTransfer, '/v1/trdp/transfers', { from: accountId, amount: 1, description: `Moved ${round}` })]);
      expect(transfer.status).toBe(201);
      if (closing.status === 200) {
        expect(await standing(accountId)).toEqual(closedHoldingNothing);
      } else {
        expect(outcome(closing)).toEqual([409, 'ACCOUNT_NOT_SETTLED']);
        await openWith(accountId, 0);
      }
    }
  });

  it('the reversal of a transfer to the account: either it is made and the closing refused, or the account is closed and the reversal refused ACCOUNT_CLOSED', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const accountId = await createAccount(first.baseUrl, platform, `reversal-${round}`);
      const bonus = await post(first, '/v1/trdp/transfers', { to: accountId, amount: 1, description: `Bonus ${round}` });
      expect(bonus.status).toBe(201);
      await waitFor(async () => (await standing(accountId)).available === 100, 'the bonus in the account’s balance');
      expect((await post(first, '/v1/trdp/transfers', { from: accountId, amount: 1, description: `Moved ${round}` })).status).toBe(201);
      await waitFor(async () => (await standing(accountId)).available === 0, 'the bonus moved out again');
      const [forClose, forReversal] = sides(round);
      const [closing, reversal] = await Promise.all([close(forClose, accountId), post(forReversal, `/v1/trdp/transfers/${bonus.body.data.transferId}/reversals`, {})]);
      if (closing.status === 200) {
        expect(outcome(reversal)).toEqual([409, 'ACCOUNT_CLOSED']);
        expect(await standing(accountId)).toEqual(closedHoldingNothing);
      } else {
        expect(outcome(closing)).toEqual([409, 'ACCOUNT_NOT_SETTLED']);
        expect(reversal.status).toBe(201);
        await openWith(accountId, -100);
      }
    }
  });

  it('the reversal of an allocation released to a closed account is refused ACCOUNT_CLOSED, writing nothing: the account would owe what it gave back', async () => {
    const { accountId, escrowId } = await releasedAndMovedOut('reversed-after-closing');
    expect((await close(first, accountId)).status).toBe(200);
    const refused = await reverseAllocation(second, escrowId, accountId);
    expect(outcome(refused)).toEqual([409, 'ACCOUNT_CLOSED']);
    expect(refused.body.error.message).toContain(`Account ${accountId} is closed`);
    expect(await standing(accountId)).toEqual(closedHoldingNothing);
    expect(await reversedOf(escrowId)).toBe(0);
    const requested = await first.schema!.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND event_type = 'EscrowRefundRequested'`, [`escrow-${escrowId}`]);
    expect(requested[0].n).toBe(0);
  });

  it('the reversal of an allocation released to the account: either it is made and the closing refused, or the account is closed and the reversal refused ACCOUNT_CLOSED', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { accountId, escrowId } = await releasedAndMovedOut(`allocation-reversal-${round}`);
      const [forClose, forReversal] = sides(round);
      const [closing, reversal] = await Promise.all([close(forClose, accountId), reverseAllocation(forReversal, escrowId, accountId)]);
      if (closing.status === 200) {
        expect(outcome(reversal)).toEqual([409, 'ACCOUNT_CLOSED']);
        expect(await standing(accountId)).toEqual(closedHoldingNothing);
        expect(await reversedOf(escrowId)).toBe(0);
      } else {
        expect(outcome(closing)).toEqual([409, 'ACCOUNT_NOT_SETTLED']);
        expect(closing.body.error.message).toContain('still has -10 ETB available');
        expect(reversal.status).toBe(201);
        expect(reversal.body.data).toMatchObject({ merchantId: accountId, amount: 10, merchantDebited: 10 });
        await openWith(accountId, -1_000);
        expect(await reversedOf(escrowId)).toBe(10);
      }
    }
  });

  it('an escrow allocating to the account: refused once it is closed, else the closing is refused, or the escrow is left to cancel or refund', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const accountId = await createAccount(first.baseUrl, platform, `allocation-${round}`);
      const [forClose, forEscrow] = sides(round);
      const request = escrowRequest({ callbackURL: undefined, amount: 10, items: [{ productId: 'sku-1', item_name: 'Coffee', quantity: 1, unit_price: 10 }], allocations: [{ merchantId: accountId, amount: 10 }] });
      const [closing, escrow] = await Promise.all([close(forClose, accountId), post(forEscrow, '/v1/trdp/escrow/order', request)]);
      if (escrow.status !== 201) {
        expect(closing.status).toBe(200);
        expect(outcome(escrow)).toEqual([404, 'UNKNOWN_ALLOCATION_MERCHANT']);
      } else if (closing.status !== 200) {
        expect(outcome(closing)).toEqual([409, 'ACCOUNT_NOT_SETTLED']);
        expect(closing.body.error.message).toContain('1 open allocation');
      } else {
        // Both made (docs/guides/marketplaces.md, "Closing an account"): the escrow is not yet paid, and is cancelled.
        expect((await post(first, `/v1/trdp/escrow/${escrow.body.data.escrowId}/cancel`, { reason: 'The seller left' })).status).toBe(200);
      }
      const after = await standing(accountId);
      expect([after.available, after.onHold, after.pending]).toEqual([0, 0, 0]);
    }
  });
});
