/**
 * The typed client (libs/client) against the real service on PostgreSQL: an escrow created, paid
 * in the sandbox, released, listed and refunded through it; its refusals as typed exceptions; a
 * POST retried under its Idempotency-Key applied once; the audit log iterated page by page; and
 * examples/escrow.ts and examples/marketplace.ts compiled and run with plain node.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AuthenticationError, BadRequestError, ConflictError, type CreateEscrowDto, EscrowLedger, NotFoundError, paginate } from '../../libs/client/src';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { createAccount } from '../support/fixtures';
import { FAST_SANDBOX } from '../support/seeded-resources';
import { waitFor } from '../support/wait';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

describe('the typed client against the service', () => {
  let running: RunningApp;
  let admin: EscrowLedger;
  let ledger: EscrowLedger;
  let merchantId: string;
  let apiSecret: string;
  /** The marketplace's accounts its escrows allocate to. */
  let seller1: string;
  let courier1: string;
  let sequence = 0;

  const escrowBody = (): CreateEscrowDto => ({
    orderId: `CLIENT-${Date.now()}-${(sequence += 1)}`,
    amount: 1000.5,
    currency: 'ETB',
    customerName: 'Abebe Kebede',
    customerPhoneNumber: '0911234567',
    items: [{ productId: 'sku-1', item_name: 'Coffee 1kg', quantity: 1, unit_price: 1000.5 }],
    allocations: [
      { merchantId: seller1, amount: 600.5 },
      { merchantId: courier1, amount: 400 },
    ],
  });
  const escrow = async (escrowId: string) => (await ledger.getEscrowByEscrowId({ path: { escrowId } })).data;

  beforeAll(async () => {
    running = await startApp({ env: FAST_SANDBOX });
    admin = new EscrowLedger({ baseUrl: running.baseUrl, adminKey: TEST_ADMIN_KEY });
    ({ merchantId, apiSecret } = (await admin.postAdminMerchants({ body: { name: 'Client Marketplace' } })).data);
    // The courier as examples/escrow.ts onboards it, so the example finds the same account.
    [seller1, courier1] = [await createAccount(running.baseUrl, { apiSecret }, 'seller-1', 'Seller One'), await createAccount(running.baseUrl, { apiSecret }, 'courier-1', 'Kebede Delivery')];
    ledger = new EscrowLedger({ baseUrl: running.baseUrl, apiSecret });
  });
  afterAll(async () => {
    await running?.close();
  });

  it('creates, pays, releases, lists and refunds an escrow', async () => {
    const created = await ledger.postEscrowOrder({ body: escrowBody() });
    const { escrowId, orderId } = created.data;
    expect(created.data).toMatchObject({ amount: 1000.5, currency: 'ETB', paymentUrl: expect.any(String) });

    await ledger.postSandboxOrdersByIdComplete({ path: { id: escrowId }, body: { outcome: 'PAID' } });
    await waitFor(async () => (await escrow(escrowId)).status === 'HELD', 'the escrow to be paid');

    const released = await ledger.postEscrowByEscrowIdRelease({ path: { escrowId }, body: { merchantId: seller1, amount: 100.5 } });
    expect(released.data.allocations.find((allocation) => allocation.merchantId === seller1)).toMatchObject({ released: 100.5, held: 500 });

    const { data: listed } = await ledger.getEscrowByEscrowIdReleases({ path: { escrowId } });
    expect(listed).toMatchObject({ escrowId, orderId, releases: [{ merchantId: seller1, amount: 100.5 }] });

    const refunding = await ledger.postEscrowByEscrowIdRefund({ path: { escrowId }, body: { merchantId: courier1, reason: 'The courier could not deliver' } });
    expect(refunding.data.allocations.find((allocation) => allocation.merchantId === courier1)).toMatchObject({ status: 'REFUND_PENDING', refunded: 400 });
    await waitFor(async () => (await escrow(escrowId)).allocations.find((allocation) => allocation.merchantId === courier1)?.status === 'REFUNDED', 'the provider to confirm the refund');
  });

  it("refuses with typed exceptions carrying the service's codes", async () => {
    const unknown = await ledger.getEscrowByEscrowId({ path: { escrowId: 'esc_unknown' } }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).toMatchObject({ status: 404, code: expect.any(String), requestId: expect.any(String) });

    const stranger = new EscrowLedger({ baseUrl: running.baseUrl, apiSecret: 'not-a-secret' });
    await expect(stranger.postEscrowOrder({ body: escrowBody() })).rejects.toBeInstanceOf(AuthenticationError);

    const unpaid = (await ledger.postEscrowOrder({ body: escrowBody() })).data.escrowId;
    const notFunded = await ledger.postEscrowByEscrowIdRelease({ path: { escrowId: unpaid }, body: { merchantId: seller1 } }).catch((error: unknown) => error);
    expect(notFunded).toBeInstanceOf(ConflictError);
    expect(notFunded).toMatchObject({ code: 'ESCROW_NOT_FUNDED' });

    const invalid = await ledger.postEscrowOrder({ body: { ...escrowBody(), amount: -1 } }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect((invalid as BadRequestError).detail).toEqual(expect.any(String));
  });

  it('applies a POST once under its Idempotency-Key, however often it is sent', async () => {
    const body = escrowBody();
    const key = `create-${body.orderId}`;
    const [first, again] = [await ledger.postEscrowOrder({ body, headers: { 'Idempotency-Key': key } }), await ledger.postEscrowOrder({ body, headers: { 'Idempotency-Key': key } })];
    expect(again.data.escrowId).toBe(first.data.escrowId);

    const conflict = await ledger.postEscrowOrder({ body: { ...body, amount: 999 }, headers: { 'Idempotency-Key': key } }).catch((error: unknown) => error);
    expect(conflict).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('iterates the audit log page by page', async () => {
    const { auditorKey } = (await admin.postAdminAuditors({ body: { name: 'Finance' } })).data;
    const auditor = new EscrowLedger({ baseUrl: running.baseUrl, auditorKey });
    const escrowId = (await ledger.postEscrowOrder({ body: escrowBody() })).data.escrowId;
    await ledger.postEscrowByEscrowIdCancel({ path: { escrowId }, body: {} });
    const stream = `escrow-${escrowId}`;

    const types: string[] = [];
    for await (const event of paginate((after) => auditor.getAuditEvents({ query: { stream, after, limit: 1 } }), { items: (page) => page.events, next: (page) => page.next })) types.push(event.type);
    const { data: whole } = await auditor.getAuditStreamsByStreamId({ path: { streamId: stream } });
    expect(types).toEqual(whole.events.map((event) => event.type));
    expect(types.length).toBeGreaterThan(1);
  });

  /** Compiles one example (examples/tsconfig.json, its output moved) and runs it with plain node: its steps, one JSON line each. */
  async function runExample(name: string, env: Record<string, string>): Promise<Array<{ step: string } & Record<string, any>>> {
    const out = await mkdtemp(join(tmpdir(), 'client-example-'));
    try {
      const tsconfig = join(out, 'tsconfig.json');
      const compilerOptions = { outDir: join(out, 'dist'), typeRoots: [join(ROOT, 'node_modules', '@types')] };
      await writeFile(tsconfig, JSON.stringify({ extends: join(ROOT, 'examples', 'tsconfig.json'), compilerOptions, include: [], files: [join(ROOT, 'examples', `${name}.ts`), join(ROOT, 'libs', 'client', 'src', 'fetch-body.d.ts')] }));
      await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tsconfig], { cwd: ROOT }).catch((error: { stdout?: string }) => {
        throw new Error(`examples/${name}.ts does not compile:\n${error.stdout}`);
      });
      const { stdout } = await run(process.execPath, [join(out, 'dist', 'examples', `${name}.js`)], { cwd: ROOT, env: { ...process.env, BASE: running.baseUrl, ...env } });
      return stdout.trim().split('\n').map((line) => JSON.parse(line) as { step: string } & Record<string, any>);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }

  it('runs examples/escrow.ts, compiled, with plain node', async () => {
    const steps = await runExample('escrow', { API_SECRET: apiSecret, MERCHANT_ID: merchantId });
    expect(steps.map((step) => step.step)).toEqual(['created', 'paid', 'released', 'releases', 'refunded', 'refused']);
    const [created, paid, , listed, refunded, refused] = steps;
    expect(paid).toMatchObject({ escrowId: created.escrowId, status: 'HELD' });
    expect(listed.releases).toEqual([{ merchantId, amount: 1000 }]);
    expect(refunded.allocations).toEqual([
      { merchantId, status: 'RELEASED' },
      { merchantId: courier1, status: 'REFUNDED' },
    ]);
    expect(refused).toEqual({ step: 'refused', status: 409, code: 'ALLOCATION_ALREADY_RELEASED' });
  });

  it('runs examples/marketplace.ts, compiled, with plain node: sellers onboarded, a split checkout released, a return, balances, payouts and verified callbacks', async () => {
    // A marketplace of its own, so the balances and payouts are only the example's.
    const marketplace = (await admin.postAdminMerchants({ body: { name: 'Example Marketplace' } })).data;
    const steps = await runExample('marketplace', { API_SECRET: marketplace.apiSecret });
    expect(steps.map((step) => step.step)).toEqual(['endpoint', 'onboarded', 'checkout', 'paid', 'released', 'returned', 'balances', 'payout', 'payout refused', 'payout', 'forged callback']);
    const [endpoint, onboarded, checkout, paid, released, returned, balances, coffeePayout, craftsRefused, courierPayout, forged] = steps;
    expect(endpoint.events).toEqual(['PAID', 'RELEASED', 'REFUNDED', 'PAYOUT_PAID']);
    const [coffee, crafts, courier] = onboarded.accounts.map((account: { accountId: string }) => account.accountId);
    expect(onboarded.accounts.map((account: { status: string }) => account.status)).toEqual(['VERIFIED', 'PENDING_VERIFICATION', 'VERIFIED']);
    expect(checkout.allocations).toEqual([
      { merchantId: coffee, amount: 1000 },
      { merchantId: crafts, amount: 600 },
      { merchantId: courier, amount: 400 },
    ]);
    expect(paid).toMatchObject({ escrowId: checkout.escrowId, callback: 'PAID', amount: 2000 });
    expect(released).toMatchObject({ status: 'RELEASED' });
    expect(released.allocations).toEqual([
      { merchantId: coffee, released: 1000, feeEarned: 100 },
      { merchantId: crafts, released: 600, feeEarned: 60 },
      { merchantId: courier, released: 400, feeEarned: 40 },
    ]);
    // 300 ETB back to the customer: 270 from the seller, 30 of the marketplace's fee.
    expect(returned).toEqual({ step: 'returned', merchantId: crafts, amount: 300, merchantDebited: 270, feeReturned: 30, callback: 'REFUNDED' });
    expect(balances).toEqual({
      step: 'balances',
      feesEarned: 170,
      sellers: [
        { accountId: coffee, available: 900 },
        { accountId: crafts, available: 270 },
        { accountId: courier, available: 360 },
      ],
    });
    expect(coffeePayout).toMatchObject({ accountId: coffee, amount: 900, status: 'PAID' });
    expect(craftsRefused).toEqual({ step: 'payout refused', accountId: crafts, status: 409, code: 'ACCOUNT_NOT_VERIFIED' });
    expect(courierPayout).toMatchObject({ accountId: courier, amount: 360, status: 'PAID' });
    expect(forged).toEqual({ step: 'forged callback', status: 401 });
  });
});
