import { migrate } from '@app/database';
import { EVENT_STORE_MIGRATIONS } from '@app/event-store';
import { CREDENTIAL_MIGRATIONS } from '@app/credentials';
import { readReleaseFixture, readReleaseLog, storeReleaseLog } from '../../libs/event-store/src/testing/release-log';
import { startApp, TEST_ADMIN_KEY, type RunningApp } from '../support/app';
import { ConsoleClient } from '../support/console-client';
import { call } from '../support/http';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { waitFor } from '../support/wait';

interface Credentials {
  secretsKey: string;
  merchants: { merchant_id: string; api_secret_hash: string; webhook_secret_sealed: string; id_salt: string; api_secret_last4: string | null }[];
  apiSecrets: Record<string, string>;
  orders: string[];
  escrows: string[];
}

/**
 * A log written by an earlier release (test/fixtures/release-2026-11-23: every order and escrow
 * lifecycle, callbacks, merchants, as the service at fc52e44 wrote them) must still read the same:
 * history is never rewritten, so every later release folds it to what that release showed.
 */
const events = readReleaseLog();
const credentials = readReleaseFixture<Credentials>('credentials.json');
const observed = readReleaseFixture<Record<string, unknown>>('observed.json');
const [merchantId] = Object.keys(credentials.apiSecrets);

/** What this release adds to that log at its first start: the one decision of its mode (docs/concepts/modes.md). */
const LEGACY_MODE_DECISION = { streams: 1, events: 1 };

let schema: TestSchema;
let running: RunningApp;

beforeAll(async () => {
  schema = await createTestSchema('compat');
  const db = schema.client;
  await migrate(db, schema.schema, 'event-store', EVENT_STORE_MIGRATIONS);
  await migrate(db, schema.schema, 'merchants', CREDENTIAL_MIGRATIONS);
  await storeReleaseLog(db, events);
  for (const m of credentials.merchants) {
    await db.query(
      `INSERT INTO merchant_credentials (merchant_id, api_secret_hash, webhook_secret_sealed, id_salt, api_secret_last4) VALUES ($1, $2, $3, $4, $5)`,
      [m.merchant_id, m.api_secret_hash, m.webhook_secret_sealed, m.id_salt, m.api_secret_last4],
    );
  }
  // The projector alone: no worker acts on the old log (retries, callbacks) while it is compared.
  running = await startApp({ schema, env: { ROLE: 'projector', SECRETS_KEY: credentials.secretsKey } });
  await waitFor(
    async () => (await call(running.baseUrl, 'GET', '/v1/audit/integrity', { headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body?.data?.eventsChecked === events.length + LEGACY_MODE_DECISION.events &&
      (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${credentials.escrows.at(-1)}`, { headers: { 'x-api-secret': credentials.apiSecrets[merchantId] } })).status === 200,
    'the projector to replay the old log',
  );
});

afterAll(async () => {
  await running?.stop();
  await schema?.drop();
});

/** Log positions are the store's (transaction ids of the replay), and asOf is when the question was asked: neither is history. */
function withoutPositions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPositions);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'position' && key !== 'asOf')
      .map(([key, inner]) => [key, withoutPositions(inner)]),
  );
}

/**
 * That release knew no modes; this one gives its history the mode the deployment decided at its first
 * start (docs/concepts/modes.md): test, as it ran on the sandbox. Every answer to that merchant's key
 * says so, and is otherwise what that release answered.
 */
function inTestMode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inTestMode);
  if (value === null || typeof value !== 'object') return value;
  const { livemode, ...rest } = value as Record<string, unknown>;
  if (livemode !== undefined) expect(livemode).toBe(false);
  return Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, inTestMode(inner)]));
}

const merchantCall = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
  const res = await call(running.baseUrl, method, path, { body, headers: { 'x-api-secret': credentials.apiSecrets[merchantId] } });
  if (!Array.isArray(res.body.data)) expect(res.body.data?.livemode).toBe(false);
  return { ...res, body: inTestMode(res.body) as typeof res.body };
};
const merchantGet = (path: string) => merchantCall('GET', path);
const auditGet = (path: string) => call(running.baseUrl, 'GET', path, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });

interface ListedDelivery {
  orderId: string;
  merchantOrderId?: string;
  status: string;
  attempts: Record<string, unknown>[];
}

/**
 * The delivery log as it lists that release's deliveries now: named as the callbacks name them (the
 * merchant's orderId, our escrowId beside it), with no answer kept for attempts made before answers
 * were, and no due time after an attempt that did not record one.
 */
function asListedNow(deliveries: ListedDelivery[]) {
  return deliveries.map(({ orderId, merchantOrderId, ...delivery }) => ({
    ...delivery,
    orderId: merchantOrderId ?? orderId,
    ...(merchantOrderId !== undefined ? { escrowId: orderId } : {}),
    nextAttemptAt: null,
    attempts: delivery.attempts.map((attempt) => ({ ...attempt, response: null })),
  }));
}

it.each(credentials.orders)('order %s reads as it did', async (id) => {
  // Refunds of paid orders, order fees and test clocks came later: none of that release's orders had any.
  const order = observed[`order:${id}`] as { amount: number; callback_url?: string; redirect_url?: string };
  expect((await merchantGet(`/v1/trdp/order/${id}`)).body.data).toEqual({
    ...order,
    refunded_amount: 0,
    fee: 0,
    net: order.amount,
    callback_url: order.callback_url ?? null,
    redirect_url: order.redirect_url ?? null,
    testClockId: null,
  });
  const verified = await merchantCall('POST', '/v1/trdp/verify', { orderId: id });
  expect(verified.body.data).toEqual(observed[`verify:${id}`]);
  expect((await merchantGet(`/v1/trdp/callbacks?orderId=${id}`)).body.data).toEqual(asListedNow(observed[`callbacks:${id}`] as ListedDelivery[]));
});

/**
 * What that release wrote, each allocation's money as its status then said: released in full, held in
 * full, refunded in full, or never paid.
 */
const MONEY_BY_STATUS: Record<string, (amount: number) => { held: number; released: number; refunded: number }> = {
  RELEASED: (amount) => ({ held: 0, released: amount, refunded: 0 }),
  HELD: (amount) => ({ held: amount, released: 0, refunded: 0 }),
  REFUND_PENDING: (amount) => ({ held: 0, released: 0, refunded: amount }),
  REFUNDED: (amount) => ({ held: 0, released: 0, refunded: amount }),
  PENDING: () => ({ held: 0, released: 0, refunded: 0 }),
  VOID: () => ({ held: 0, released: 0, refunded: 0 }),
};

/**
 * The escrow as that release showed it, with what later releases add: to each allocation (the id it
 * is kept under, which that release's free ids are; partial releases: held, released, refunded; fees,
 * disputes and reversals, none then), and to the escrow (no automatic release, no test clock).
 */
function withAllocationMoney(escrow: ObservedEscrow & { callbackURL?: string; redirectUrl?: string }) {
  return {
    ...escrow,
    autoReleaseAt: null,
    callbackURL: escrow.callbackURL ?? null,
    redirectUrl: escrow.redirectUrl ?? null,
    testClockId: null,
    allocations: escrow.allocations.map((a) => ({ ...a, accountId: a.merchantId, ...MONEY_BY_STATUS[a.status](a.amount), fee: 0, commission: null, feeEarned: 0, frozen: 0, reversed: 0, feeReturned: 0 })),
  };
}

interface ObservedEscrow {
  status: string;
  paymentStatus: string;
  allocations: { merchantId: string; amount: number; status: string }[];
}

/** That release's escrow that ended part released and part refunded, which it called REFUNDED. */
const endedBothWays = (escrow: ObservedEscrow) => escrow.status === 'REFUNDED' && escrow.allocations.some((a) => a.status === 'RELEASED');

/**
 * What this release says differently of that release's escrows, on purpose (docs/concepts/states.md):
 * an escrow whose money went part to the merchants and part back to the customer folds, from the
 * same events, to PARTIALLY_REFUNDED, its payment PAID, as verify now reports it too. The callbacks
 * then sent are history and stay as sent.
 */
function asFoldedNow<T extends ObservedEscrow>(escrow: T): T {
  return endedBothWays(escrow) ? { ...escrow, status: 'PARTIALLY_REFUNDED', paymentStatus: 'PAID' } : escrow;
}

function verifiedNow(id: string) {
  const verified = observed[`verify:${id}`] as Record<string, unknown>;
  return endedBothWays(observed[`escrow:${id}`] as ObservedEscrow) ? { ...verified, status: 'PAID', escrow_status: 'PARTIALLY_REFUNDED' } : verified;
}

it.each(credentials.escrows)('escrow %s reads as it did, now and as of its history', async (id) => {
  expect((await merchantGet(`/v1/trdp/escrow/${id}`)).body.data).toEqual(withAllocationMoney(asFoldedNow(observed[`escrow:${id}`] as ObservedEscrow)));
  const verified = await merchantCall('POST', '/v1/trdp/verify', { orderId: id });
  expect(verified.body.data).toEqual(verifiedNow(id));
  expect((await merchantGet(`/v1/trdp/callbacks?orderId=${id}`)).body.data).toEqual(asListedNow(observed[`callbacks:${id}`] as ListedDelivery[]));
  const audited = observed[`audit-escrow:${id}`] as { escrow: ObservedEscrow };
  expect(withoutPositions((await auditGet(`/v1/audit/escrows/${id}`)).body.data)).toEqual(withoutPositions({ ...audited, escrow: withAllocationMoney(asFoldedNow(audited.escrow)) }));
});

it("reads that release's escrow released in part, then cancelled and refunded, as PARTIALLY_REFUNDED: what went each way, its payment PAID, its receipt saying so", async () => {
  const mixed = credentials.escrows.filter((id) => endedBothWays(observed[`escrow:${id}`] as ObservedEscrow));
  expect(mixed).toHaveLength(1);
  const escrow = (await merchantGet(`/v1/trdp/escrow/${mixed[0]}`)).body.data;
  expect(escrow).toMatchObject({ status: 'PARTIALLY_REFUNDED', paymentStatus: 'PAID' });
  expect(escrow.allocations.map((a: { status: string; released: number; refunded: number }) => [a.status, a.released, a.refunded])).toEqual([
    ['RELEASED', 600.5, 0],
    ['REFUNDED', 0, 400],
  ]);
  const receipt = await call(running.baseUrl, 'GET', `/receipts/${mixed[0]}`);
  expect(receipt.text).toContain('Paid; part of it refunded');
  expect(receipt.text).toMatch(/Refunded to you<\/th><td>400\.00 ETB/);
  expect(receipt.text).toMatch(/Kept by [^<]+<\/th><td>600\.50 ETB/);
});

interface Books {
  accounts: { account: string }[];
}

/**
 * That release's books as this one keeps them: its money is test mode's, as its deployment ran on the
 * sandbox, so the books' own accounts are test mode's (`test:provider:clearing`, …; docs/concepts/modes.md),
 * every figure the same. In the order of their names, whatever the database's collation puts first.
 */
function inTestBooks(books: Books): Books & { mode: 'test' } {
  const renamed = books.accounts.map((a) => ({ ...a, account: a.account.includes('merchant:') || a.account.startsWith('escrow:') ? a.account : `test:${a.account}` }));
  return { ...books, mode: 'test', accounts: renamed.sort((a, b) => a.account.localeCompare(b.account)) };
}

const byName = (books: Books): Books => ({ ...books, accounts: [...books.accounts].sort((a, b) => a.account.localeCompare(b.account)) });

it("posts the same ledger, its books' own accounts test mode's, and verifies the same hash chains", async () => {
  expect(withoutPositions(byName((await auditGet('/v1/audit/ledger/trial-balance?mode=test')).body.data))).toEqual(withoutPositions(inTestBooks(observed['trial-balance'] as Books)));
  expect(withoutPositions(byName((await auditGet('/v1/audit/ledger/balances?mode=test')).body.data))).toEqual(withoutPositions(inTestBooks(observed['balances'] as Books)));
  // Nothing of it is live money.
  expect((await auditGet('/v1/audit/ledger/trial-balance?mode=live')).body.data).toEqual({ mode: 'live', balanced: true, totalDebits: 0, totalCredits: 0, accounts: [] });
  const integrity = observed['integrity'] as { streamsChecked: number; eventsChecked: number };
  expect((await auditGet('/v1/audit/integrity')).body.data).toEqual({
    ...integrity,
    streamsChecked: integrity.streamsChecked + LEGACY_MODE_DECISION.streams,
    eventsChecked: integrity.eventsChecked + LEGACY_MODE_DECISION.events,
  });
  const [decided] = await schema.client.query<{ data: { mode: string } }>(`SELECT data FROM events WHERE stream_id = 'deployment-modes-legacy'`);
  expect(decided.data.mode).toBe('test');
});

it("lists the payables that release's free allocation ids stranded on the audit console's Sellers page, with their balances", async () => {
  const staff = new ConsoleClient(running.baseUrl);
  await staff.post('/audit/sign-in', { key: TEST_ADMIN_KEY }, { csrfFrom: '/audit/sign-in' });
  const page = (await staff.get('/audit/accounts')).text;
  expect(page).toMatch(/merchant:seller-1:payable<\/a><\/td><td data-label="Balance" class="num">1,201\.00 ETB/);
  expect(page).toMatch(/merchant:courier-1:payable<\/a><\/td><td data-label="Balance" class="num">800\.00 ETB/);
  expect(page).not.toContain(`merchant:${merchantId}:payable`);
});
