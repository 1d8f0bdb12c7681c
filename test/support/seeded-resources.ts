import { createServer, type Server } from 'node:http';
import { quoteIdentifier, type SqlClient } from '@app/database';
import { TEST_ADMIN_KEY, type RunningApp } from './app';
import { countWrites, escrowRequest, orderRequest, registerMarketplace, type TestMarketplace, type TestMerchant, withSellers, type WriteCounts } from './fixtures';
import { call } from './http';
import { waitFor } from './wait';

/**
 * Real resources of every kind a route can address, all owned by `merchant`, so that tests over
 * every route (fuzzing, the authorization matrix) reach each route's own checks instead of a 404.
 */
export interface SeededResources {
  /** Registered with an owner e-mail: `invitationUrl` signs its owner in to the dashboard. Its escrows allocate to its accounts `seller1` and `courier1`. */
  merchant: TestMarketplace & { invitationUrl?: string };
  /** Owns nothing of the above: its key must not reach them. Its own escrows allocate to its own accounts. */
  otherMerchant: TestMerchant;
  auditorKey: string;
  /** A plain order still waiting for payment. */
  pendingOrderId: string;
  /** A plain order paid through the sandbox, whose PAID callback was delivered. */
  paidOrderId: string;
  deliveryId: string;
  /** The paid order's PAID event in the events API. */
  eventId: string;
  /** Escrows waiting for payment: one to read and refuse releases on, one to cancel. */
  pendingEscrowId: string;
  escrowToCancelId: string;
  /** A paid escrow whose allocation to `merchant.seller1` is held. */
  heldEscrowId: string;
  /** Webhook endpoints (payout events only, to the local receiver): one to read, change and test, one to delete. */
  webhookEndpointId: string;
  webhookEndpointToDeleteId: string;
  /** Test clocks: one to read and advance, one to delete. */
  testClockId: string;
  testClockToDeleteId: string;
  /** One of `merchant`'s accounts (a seller), waiting for review. */
  accountId: string;
  /** Stops the callback receiver. */
  close(): Promise<void>;
}

/** The SANDBOX_DELAY_MS that keeps seeding fast: payments settle a moment after they are started. */
export const FAST_SANDBOX = { SANDBOX_DELAY_MS: '20' };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/callbacks`;
}

export async function seedResources(running: RunningApp): Promise<SeededResources> {
  const { baseUrl } = running;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end());
  });
  const callbackURL = await listen(receiver);
  const owner = await call(baseUrl, 'POST', '/v1/admin/merchants', {
    body: { name: 'Resource Owner', email: `owner-${Date.now()}-${Math.random().toString(36).slice(2)}@merchant.example` },
    headers: { 'x-admin-key': TEST_ADMIN_KEY },
  });
  if (owner.status !== 201) throw new Error(`seeding the owner failed: ${owner.status} ${owner.text}`);
  const merchant = await withSellers(baseUrl, owner.body.data as TestMerchant & { invitationUrl?: string });
  const otherMerchant = await registerMarketplace(baseUrl, 'Other Merchant');
  const headers = { 'x-api-secret': merchant.apiSecret };
  const post = async (path: string, body: unknown, expected: number) => {
    const res = await call(baseUrl, 'POST', path, { body, headers });
    if (res.status !== expected) throw new Error(`seeding ${path} failed: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const auditor = await call(baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Seed Auditor' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
  if (auditor.status !== 201) throw new Error(`seeding an auditor failed: ${auditor.status} ${auditor.text}`);

  // Every callback goes to the local receiver, so none waits on a name lookup or a retry.
  const pendingOrderId = (await post('/v1/trdp/order', orderRequest({ callbackURL }), 201)).order_id;
  const paidOrderId = (await post('/v1/trdp/order', orderRequest({ callbackURL }), 201)).order_id;
  const pendingEscrowId = (await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL }), 201)).escrowId;
  const escrowToCancelId = (await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL }), 201)).escrowId;
  const heldEscrowId = (await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL }), 201)).escrowId;
  const accountId = (await post('/v1/trdp/accounts', { name: 'Seeded Seller', type: 'individual', reference: 'seeded-seller' }, 201)).accountId;
  await post(`/v1/sandbox/orders/${paidOrderId}/complete`, { outcome: 'PAID' }, 200);
  await post(`/v1/sandbox/orders/${heldEscrowId}/complete`, { outcome: 'PAID' }, 200);
  const delivery = await waitFor(async () => {
    const list = (await call(baseUrl, 'GET', `/v1/trdp/callbacks?orderId=${paidOrderId}`, { headers })).body?.data;
    return list?.[0]?.status === 'DELIVERED' && list[0];
  }, 'the paid order’s callback to be delivered');
  await waitFor(async () => (await call(baseUrl, 'GET', `/v1/trdp/escrow/${heldEscrowId}`, { headers })).body?.data?.status === 'HELD', 'the escrow to be held');
  // The events API reads a view the projector writes once the payment is in the log: it waits for it.
  const paidEvents = (await call(baseUrl, 'GET', '/v1/trdp/events?type=PAID&limit=100', { headers })).body?.data?.events as Array<{ id: string; payload: { orderId: string } }>;
  const eventId = paidEvents?.find((event) => event.payload.orderId === paidOrderId)?.id;
  if (!eventId) throw new Error(`seeding: the paid order has no PAID event: ${JSON.stringify(paidEvents)}`);
  // Made after the payments, and for payout events only: the seeded orders' callbacks do not reach them.
  const webhookEndpointId = (await post('/v1/trdp/webhook-endpoints', { url: callbackURL, events: ['PAYOUT_PAID'] }, 201)).endpointId;
  const webhookEndpointToDeleteId = (await post('/v1/trdp/webhook-endpoints', { url: callbackURL, events: ['PAYOUT_PAID'] }, 201)).endpointId;
  const testClockId = (await post('/v1/trdp/test-clocks', { frozenTime: '2030-01-01T00:00:00Z' }, 201)).testClockId;
  const testClockToDeleteId = (await post('/v1/trdp/test-clocks', { frozenTime: '2030-01-01T00:00:00Z' }, 201)).testClockId;
  return {
    merchant,
    otherMerchant,
    auditorKey: auditor.body.data.auditorKey,
    pendingOrderId,
    paidOrderId,
    deliveryId: delivery.deliveryId,
    eventId,
    pendingEscrowId,
    escrowToCancelId,
    heldEscrowId,
    webhookEndpointId,
    webhookEndpointToDeleteId,
    testClockId,
    testClockToDeleteId,
    accountId,
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}

/**
 * Waits until what a request set going in the background (a sandbox payment's notification, a
 * refund's confirmation, a callback attempt) has finished, so the next request's "nothing written"
 * check counts only that request. Silence alone is not enough on a loaded machine, where the steps
 * of a refund can be further apart than any quiet window: the service is settled when the read
 * models hold every event, no provider operation awaits its answer, no callback awaits its first
 * attempt, and nothing was written for `quietMs`.
 */
export async function waitForQuiet(db: SqlClient, quietMs = 250): Promise<WriteCounts> {
  let last = await countWrites(db);
  let since = Date.now();
  let pending: Record<string, number> = {};
  return waitFor(async () => {
    const now = await countWrites(db);
    if (JSON.stringify(now) !== JSON.stringify(last)) {
      last = now;
      since = Date.now();
      return false;
    }
    if (Date.now() - since < quietMs) return false;
    pending = await pendingWork(db);
    return Object.values(pending).every((count) => count === 0) && now;
  }, () => `the service to finish what the last request set going (still open: ${JSON.stringify(pending)})`);
}

async function pendingWork(db: SqlClient): Promise<Record<string, number>> {
  const [row] = await db.query<{ unprojected: number; openOperations: number; unattemptedCallbacks: number; queueSchema: string | null }>(
    `SELECT (SELECT count(*)::int FROM events, projection_checkpoints c
              WHERE c.name = 'read-models' AND (events.transaction_id::text::numeric, events.global_position) > (c.commit_position, c.prepare_position)
            ) AS "unprojected",
            (SELECT count(*)::int FROM provider_operations WHERE status = 'OPEN') AS "openOperations",
            (SELECT count(*)::int FROM callback_deliveries_view
              WHERE status = 'PENDING' AND jsonb_array_length(document->'attempts') = 0) AS "unattemptedCallbacks",
            (SELECT nspname FROM pg_namespace WHERE nspname = current_schema() || '_queues') AS "queueSchema"`,
  );
  const { queueSchema, ...pending } = row;
  return queueSchema ? { ...pending, queuedJobs: await queuedJobs(db, queueSchema) } : pending;
}

/**
 * Jobs on BullMQ's PostgreSQL backend (libs/scheduling/src/queue-connection.ts) that a worker has
 * taken or may take now: waiting, running, or delayed to a moment already past (BullMQ promotes those
 * on its next poll). A job delayed into the future (a callback's retry an hour away) is not pending.
 */
async function queuedJobs(db: SqlClient, schema: string): Promise<number> {
  const [{ count }] = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM ${quoteIdentifier(schema)}.job
      WHERE state IN ('waiting', 'active') OR (state = 'delayed' AND process_at_ms <= $1)`,
    [Date.now()],
  );
  return count;
}
