import { escrowRequest, orderRequest } from './fixtures';
import { TEST_ADMIN_KEY } from './app';
import type { SeededResources } from './seeded-resources';

/**
 * The authorization decision for every route the app serves: which credential gets which status.
 * test/e2e/authorization-matrix.spec.ts sends each route every credential below and compares; a
 * route the app serves without an entry here fails that test, naming the route.
 *
 * To add a route: one entry keyed by `METHOD /url` exactly as servedRoutes() lists it (Fastify's
 * `:param` and `*` syntax), with the request to send (parameters filled from the seeded resources,
 * all owned by `merchant`) and the status per credential, usually through one of the presets.
 * `HEAD` routes use their `GET` entry. `METHOD /prefix/**` covers every route under a prefix (a
 * mounted plugin's), `ANY` every method.
 */

/** What the request carries: nothing, a garbage or unknown key (in every key header), or a real one. */
export const CREDENTIALS = ['none', 'malformed', 'wrong', 'owner', 'otherMerchant', 'auditor', 'admin'] as const;
export type Credential = (typeof CREDENTIALS)[number];

/** The last character changed: shaped like the real key, accepted by nothing. */
function near(key: string): string {
  return key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
}

const MALFORMED = ['', ' ', "' OR '1'='1", 'x'.repeat(4096), 'Bearer \u00e9\u00ff', 'null'];

/** The headers a request carries for a credential (several for `malformed`: each is tried). */
export function credentialHeaders(credential: Credential, r: SeededResources): Array<Record<string, string>> {
  const everyHeader = (value: string) => ({ 'x-api-secret': value, 'x-admin-key': value, 'x-auditor-key': value });
  switch (credential) {
    case 'none':
      return [{}];
    case 'malformed':
      return MALFORMED.map(everyHeader);
    case 'wrong':
      return [{ 'x-api-secret': near(r.merchant.apiSecret), 'x-admin-key': near(TEST_ADMIN_KEY), 'x-auditor-key': near(r.auditorKey) }];
    case 'owner':
      return [{ 'x-api-secret': r.merchant.apiSecret }];
    case 'otherMerchant':
      return [{ 'x-api-secret': r.otherMerchant.apiSecret }];
    case 'auditor':
      return [{ 'x-auditor-key': r.auditorKey }];
    case 'admin':
      return [{ 'x-admin-key': TEST_ADMIN_KEY }];
  }
}

/** A status, or GRANTED: past authorization; what a third-party plugin then answers is its own business. */
export const GRANTED = 'granted';
export type Outcome = number | typeof GRANTED;

export interface AccessRequest {
  path: string;
  body?: unknown;
}

export interface RouteAccess {
  route: string;
  request(r: SeededResources, route: string): AccessRequest;
  expect: Record<Credential, Outcome>;
  /** Where a 303 must send the browser. */
  location?: string;
}

const everyone = (status: Outcome): Record<Credential, Outcome> => ({
  none: status,
  malformed: status,
  wrong: status,
  owner: status,
  otherMerchant: status,
  auditor: status,
  admin: status,
});

/** Merchant API (x-api-secret): another merchant's resources are not found (docs/reference/api.md: 404, never 403). */
const merchant = (owner: Outcome, otherMerchant: Outcome = 404) => ({ ...everyone(401), owner, otherMerchant });
/** Staff API (x-admin-key). */
const admin = (status: Outcome) => ({ ...everyone(401), admin: status });
/** Audit API: an auditor key, or the admin key. */
const audit = (status: Outcome) => ({ ...everyone(401), auditor: status, admin: status });
/** Open to anyone; keys change nothing (health, docs, customer pages, provider webhooks signed by HMAC). */
const open = everyone;
/** A console page behind a cookie session: without one the browser goes to sign-in; API keys are not sessions. */
const signInFirst = everyone(303);

const at = (path: string, body?: unknown) => () => ({ path, body });
/** A plugin's route with its parameters filled with values that name nothing. */
const placeholders = (_: SeededResources, route: string) => ({ path: route.replace(/:\w+/g, 'unknown').replace(/\*$/, 'unknown') });

export const ROUTE_ACCESS: RouteAccess[] = [
  // ---- merchant API -------------------------------------------------------------------------
  { route: 'POST /v1/trdp/order', request: () => ({ path: '/v1/trdp/order', body: orderRequest() }), expect: merchant(201, 201) },
  { route: 'GET /v1/trdp/order/:orderId', request: (r) => ({ path: `/v1/trdp/order/${r.paidOrderId}` }), expect: merchant(200) },
  { route: 'POST /v1/trdp/order/:orderId/refund', request: (r) => ({ path: `/v1/trdp/order/${r.paidOrderId}/refund`, body: { amount: 0.01, reason: 'damaged' } }), expect: merchant(200) },
  { route: 'POST /v1/trdp/escrow/order', request: () => ({ path: '/v1/trdp/escrow/order', body: escrowRequest() }), expect: merchant(201, 201) },
  { route: 'GET /v1/trdp/escrow/:escrowId', request: (r) => ({ path: `/v1/trdp/escrow/${r.pendingEscrowId}` }), expect: merchant(200) },
  { route: 'GET /v1/trdp/escrow/:escrowId/releases', request: (r) => ({ path: `/v1/trdp/escrow/${r.pendingEscrowId}/releases` }), expect: merchant(200) },
  { route: 'POST /v1/trdp/escrow/:escrowId/release', request: (r) => ({ path: `/v1/trdp/escrow/${r.heldEscrowId}/release`, body: { merchantId: r.merchant.seller1 } }), expect: merchant(200) },
  { route: 'POST /v1/trdp/escrow/:escrowId/refund', request: (r) => ({ path: `/v1/trdp/escrow/${r.heldEscrowId}/refund`, body: { merchantId: r.merchant.courier1, amount: 1, reason: 'damaged' } }), expect: merchant(200) },
  // Past authorization the owner reaches the decider: nothing of a pending escrow was released to reverse.
  { route: 'POST /v1/trdp/escrow/:escrowId/reversals', request: (r) => ({ path: `/v1/trdp/escrow/${r.pendingEscrowId}/reversals`, body: { merchantId: r.merchant.seller1, reason: 'returned' } }), expect: merchant(409) },
  // Past authorization the owner reaches the decider, which refuses an escrow not paid yet.
  { route: 'POST /v1/trdp/escrow/:escrowId/auto-release', request: (r) => ({ path: `/v1/trdp/escrow/${r.pendingEscrowId}/auto-release`, body: { autoReleaseAt: null } }), expect: merchant(409) },
  { route: 'POST /v1/trdp/escrow/:escrowId/dispute', request: (r) => ({ path: `/v1/trdp/escrow/${r.pendingEscrowId}/dispute`, body: { reason: 'not delivered' } }), expect: merchant(409) },
  {
    route: 'POST /v1/trdp/escrow/:escrowId/dispute/resolve',
    request: (r) => ({ path: `/v1/trdp/escrow/${r.pendingEscrowId}/dispute/resolve`, body: { release: 0, refund: 0 } }),
    expect: merchant(409),
  },
  { route: 'POST /v1/trdp/escrow/:escrowId/cancel', request: (r) => ({ path: `/v1/trdp/escrow/${r.escrowToCancelId}/cancel`, body: {} }), expect: merchant(200) },
  { route: 'POST /v1/trdp/verify', request: (r) => ({ path: '/v1/trdp/verify', body: { orderId: r.paidOrderId } }), expect: merchant(200) },
  { route: 'POST /v1/sandbox/orders/:id/complete', request: (r) => ({ path: `/v1/sandbox/orders/${r.pendingOrderId}/complete`, body: { outcome: 'FAILED' } }), expect: merchant(200) },
  // A filter over the caller's own deliveries: another merchant's order gives the empty list an unknown
  // order gives, so the answer tells nothing about other merchants' orders.
  { route: 'GET /v1/trdp/callbacks', request: (r) => ({ path: `/v1/trdp/callbacks?orderId=${r.paidOrderId}` }), expect: merchant(200, 200) },
  { route: 'POST /v1/trdp/callbacks/:deliveryId/redeliver', request: (r) => ({ path: `/v1/trdp/callbacks/${r.deliveryId}/redeliver` }), expect: merchant(202) },
  // The caller's own events: another merchant lists its own (none of the owner's), and finds none of the owner's by id.
  { route: 'GET /v1/trdp/events', request: at('/v1/trdp/events?type=PAID&order=asc&limit=5'), expect: merchant(200, 200) },
  { route: 'GET /v1/trdp/events/:eventId', request: (r) => ({ path: `/v1/trdp/events/${r.eventId}` }), expect: merchant(200) },
  // Every merchant rotates its own secret: there is no foreign resource to reach.
  { route: 'POST /v1/trdp/webhook-secret/rotate', request: at('/v1/trdp/webhook-secret/rotate'), expect: merchant(200, 200) },
  { route: 'GET /v1/trdp/webhook-secret', request: at('/v1/trdp/webhook-secret'), expect: merchant(200, 200) },
  // Each merchant's own destination, like its secret.
  {
    route: 'POST /v1/trdp/payout-destination',
    request: at('/v1/trdp/payout-destination', { kind: 'wallet', institution: 'telebirr', accountNumber: '0911223344', holderName: 'Matrix Shop' }),
    expect: merchant(200, 200),
  },
  { route: 'GET /v1/trdp/payout-destination', request: at('/v1/trdp/payout-destination'), expect: merchant(200, 200) },
  // Each merchant's own settings (manual, so the matrix sets no payout going).
  {
    route: 'POST /v1/trdp/payout-settings',
    request: at('/v1/trdp/payout-settings', { schedule: 'manual', minimumAmount: 0.01, callbackURL: 'https://matrix.example/payout-callbacks' }),
    expect: merchant(200, 200),
  },
  { route: 'GET /v1/trdp/payout-settings', request: at('/v1/trdp/payout-settings'), expect: merchant(200, 200) },
  // Past authorization the merchant's own payout account decides: nothing of its own is released, or no destination yet.
  { route: 'POST /v1/trdp/payouts', request: at('/v1/trdp/payouts', {}), expect: merchant(409, 409) },
  { route: 'GET /v1/trdp/payouts', request: at('/v1/trdp/payouts'), expect: merchant(200, 200) },
  { route: 'GET /v1/trdp/payouts/:payoutId', request: placeholders, expect: merchant(404, 404) },
  { route: 'GET /v1/trdp/payouts/:payoutId/movements', request: placeholders, expect: merchant(404, 404) },
  { route: 'GET /v1/trdp/payouts/:payoutId/report', request: placeholders, expect: merchant(404, 404) },
  { route: 'GET /v1/trdp/payouts/:payoutId/report.csv', request: placeholders, expect: merchant(404, 404) },
  { route: 'POST /v1/trdp/payouts/:payoutId/cancel', request: (_r, route) => ({ ...placeholders(_r, route), body: {} }), expect: merchant(404, 404) },
  // Each merchant pauses its own payouts, and the entry after resumes them, so later routes find them running.
  { route: 'POST /v1/trdp/payouts/pause', request: at('/v1/trdp/payouts/pause', { reason: 'matrix review' }), expect: merchant(200, 200) },
  { route: 'POST /v1/trdp/payouts/resume', request: at('/v1/trdp/payouts/resume', {}), expect: merchant(200, 200) },
  // Each merchant makes its own endpoints; another merchant's are not found.
  { route: 'POST /v1/trdp/webhook-endpoints', request: at('/v1/trdp/webhook-endpoints', { url: 'https://matrix.example/hooks', events: ['PAYOUT_PAID'] }), expect: merchant(201, 201) },
  { route: 'GET /v1/trdp/webhook-endpoints', request: at('/v1/trdp/webhook-endpoints'), expect: merchant(200, 200) },
  { route: 'GET /v1/trdp/webhook-endpoints/:endpointId', request: (r) => ({ path: `/v1/trdp/webhook-endpoints/${r.webhookEndpointId}` }), expect: merchant(200) },
  { route: 'POST /v1/trdp/webhook-endpoints/:endpointId', request: (r) => ({ path: `/v1/trdp/webhook-endpoints/${r.webhookEndpointId}`, body: { description: 'Payouts' } }), expect: merchant(200) },
  { route: 'POST /v1/trdp/webhook-endpoints/:endpointId/secret', request: (r) => ({ path: `/v1/trdp/webhook-endpoints/${r.webhookEndpointId}/secret` }), expect: merchant(200) },
  { route: 'POST /v1/trdp/webhook-endpoints/:endpointId/test', request: (r) => ({ path: `/v1/trdp/webhook-endpoints/${r.webhookEndpointId}/test` }), expect: merchant(202) },
  // The owner's request deletes it: any later one finds nothing, which the walk's order never asks.
  { route: 'DELETE /v1/trdp/webhook-endpoints/:endpointId', request: (r) => ({ path: `/v1/trdp/webhook-endpoints/${r.webhookEndpointToDeleteId}` }), expect: merchant(200) },
  { route: 'POST /v1/trdp/test-clocks', request: at('/v1/trdp/test-clocks', { frozenTime: '2030-01-01T00:00:00Z' }), expect: merchant(201, 201) },
  { route: 'GET /v1/trdp/test-clocks/:testClockId', request: (r) => ({ path: `/v1/trdp/test-clocks/${r.testClockId}` }), expect: merchant(200) },
  // Only the owner's advance moves it, once: any other credential is refused before the time is read.
  { route: 'POST /v1/trdp/test-clocks/:testClockId/advance', request: (r) => ({ path: `/v1/trdp/test-clocks/${r.testClockId}/advance`, body: { frozenTime: '2030-06-01T00:00:00Z' } }), expect: merchant(200) },
  { route: 'DELETE /v1/trdp/test-clocks/:testClockId', request: (r) => ({ path: `/v1/trdp/test-clocks/${r.testClockToDeleteId}` }), expect: merchant(200) },
  // A statement of the caller's own payable.
  { route: 'GET /v1/trdp/statement', request: at('/v1/trdp/statement?from=2026-01-01T00:00:00Z&to=2031-01-01T00:00:00Z'), expect: merchant(200, 200) },
  { route: 'GET /v1/trdp/statement.csv', request: at('/v1/trdp/statement.csv?from=2026-01-01T00:00:00Z&to=2031-01-01T00:00:00Z'), expect: merchant(200, 200) },
  // The caller's own lists and balance: another merchant's key lists its own (none of the owner's).
  { route: 'GET /v1/trdp/escrows', request: at('/v1/trdp/escrows?limit=5'), expect: merchant(200, 200) },
  { route: 'GET /v1/trdp/orders', request: at('/v1/trdp/orders?limit=5'), expect: merchant(200, 200) },
  { route: 'GET /v1/trdp/balance', request: at('/v1/trdp/balance'), expect: merchant(200, 200) },
  { route: 'GET /v1/trdp/balance-transactions', request: at('/v1/trdp/balance-transactions?limit=5'), expect: merchant(200, 200) },
  // Transfers to the owner's seller: the owner has too little available for this one (409); to another merchant the seller is not found (docs/concepts/authority.md).
  { route: 'POST /v1/trdp/transfers', request: (r) => ({ path: '/v1/trdp/transfers', body: { to: r.merchant.seller1, amount: 1_000_000, description: 'bonus' } }), expect: merchant(409, 404) },
  { route: 'GET /v1/trdp/transfers', request: at('/v1/trdp/transfers?limit=5'), expect: merchant(200, 200) },
  { route: 'GET /v1/trdp/transfers/:transferId', request: at('/v1/trdp/transfers/tr_unknown'), expect: merchant(404) },
  { route: 'POST /v1/trdp/transfers/:transferId/reversals', request: at('/v1/trdp/transfers/tr_unknown/reversals', {}), expect: merchant(404) },

  // A platform's sellers: its own new ones (no reference, so each request makes one), another's are not found.
  // The platform's own default commission: another merchant reads and sets its own.
  { route: 'GET /v1/trdp/commission', request: at('/v1/trdp/commission'), expect: merchant(200, 200) },
  { route: 'POST /v1/trdp/commission', request: at('/v1/trdp/commission', { percentage: 10, minimum: 5 }), expect: merchant(200, 200) },
  { route: 'DELETE /v1/trdp/commission', request: at('/v1/trdp/commission'), expect: merchant(200, 200) },
  // An override is for the platform's own accounts: another merchant's is one it does not have.
  { route: 'GET /v1/trdp/accounts/:accountId/commission', request: (r) => ({ path: `/v1/trdp/accounts/${r.accountId}/commission` }), expect: merchant(200) },
  { route: 'POST /v1/trdp/accounts/:accountId/commission', request: (r) => ({ path: `/v1/trdp/accounts/${r.accountId}/commission`, body: { percentage: 7 } }), expect: merchant(200) },
  { route: 'DELETE /v1/trdp/accounts/:accountId/commission', request: (r) => ({ path: `/v1/trdp/accounts/${r.accountId}/commission` }), expect: merchant(200) },
  { route: 'POST /v1/trdp/accounts', request: at('/v1/trdp/accounts', { name: 'Matrix Seller', type: 'individual' }), expect: merchant(201, 201) },
  { route: 'GET /v1/trdp/accounts', request: at('/v1/trdp/accounts'), expect: merchant(200, 200) },
  { route: 'GET /v1/trdp/accounts/:accountId', request: (r) => ({ path: `/v1/trdp/accounts/${r.accountId}` }), expect: merchant(200) },
  { route: 'POST /v1/trdp/accounts/:accountId', request: (r) => ({ path: `/v1/trdp/accounts/${r.accountId}`, body: { email: 'seller@matrix.example' } }), expect: merchant(200) },
  // Closing the owner's seller is refused while its escrow allocation is held (409); another platform's finds no account.
  {
    route: 'POST /v1/trdp/accounts/:accountId/close',
    request: (r) => ({ path: `/v1/trdp/accounts/${r.merchant.seller1}/close`, body: { reason: 'Left the marketplace' } }),
    expect: merchant(409),
  },
  // Each owner's request replaces the seeded seller's pending invitation; another platform's finds no account.
  {
    route: 'POST /v1/trdp/accounts/:accountId/invitation',
    request: (r) => ({ path: `/v1/trdp/accounts/${r.accountId}/invitation`, body: { email: 'seller-owner@matrix.example' } }),
    expect: merchant(201),
  },
  // An account link is for the platform's own account; another platform's finds no account.
  {
    route: 'POST /v1/trdp/account-links',
    request: (r) => ({ path: '/v1/trdp/account-links', body: { accountId: r.accountId, returnUrl: 'https://matrix.example/done', refreshUrl: 'https://matrix.example/again' } }),
    expect: merchant(201),
  },

  // A document is multipart: the owner's JSON body is refused (415) once its key and the account are accepted; the other platform finds no account.
  { route: 'POST /v1/trdp/accounts/:accountId/documents', request: (r) => ({ path: `/v1/trdp/accounts/${r.accountId}/documents`, body: { kind: 'identity' } }), expect: merchant(415) },
  { route: 'GET /v1/trdp/accounts/:accountId/documents', request: (r) => ({ path: `/v1/trdp/accounts/${r.accountId}/documents` }), expect: merchant(200) },
  { route: 'GET /v1/trdp/accounts/:accountId/documents/:documentId', request: (r) => ({ path: `/v1/trdp/accounts/${r.accountId}/documents/doc_unknown` }), expect: merchant(404) },

  // Links: the owner lets the other merchant move its money; the other merchant may not link itself (400). A revoke naming no registered platform is not found.
  { route: 'POST /v1/trdp/platform-links', request: (r) => ({ path: '/v1/trdp/platform-links', body: { platformId: r.otherMerchant.merchantId } }), expect: merchant(201, 400) },
  { route: 'GET /v1/trdp/platform-links', request: at('/v1/trdp/platform-links'), expect: merchant(200, 200) },
  { route: 'DELETE /v1/trdp/platform-links/:platformId', request: at('/v1/trdp/platform-links/mer_unknown'), expect: merchant(404, 404) },

  // ---- staff and audit API ------------------------------------------------------------------
  { route: 'POST /v1/admin/merchants', request: at('/v1/admin/merchants', { name: 'Matrix Shop' }), expect: admin(201) },
  {
    route: 'POST /v1/admin/merchants/:merchantId/invitation',
    request: (r) => ({ path: `/v1/admin/merchants/${r.otherMerchant.merchantId}/invitation`, body: { email: 'matrix-owner@shop.example' } }),
    expect: admin(201),
  },
  // Registered after modes, the merchant has its other mode's tenant already.
  { route: 'POST /v1/admin/merchants/:merchantId/other-mode', request: (r) => ({ path: `/v1/admin/merchants/${r.otherMerchant.merchantId}/other-mode` }), expect: admin(409) },
  { route: 'POST /v1/admin/merchants/:merchantId/platform-links', request: (r) => ({ path: `/v1/admin/merchants/${r.merchant.merchantId}/platform-links`, body: { platformId: r.otherMerchant.merchantId } }), expect: admin(201) },
  { route: 'DELETE /v1/admin/merchants/:merchantId/platform-links/:platformId', request: (r) => ({ path: `/v1/admin/merchants/${r.merchant.merchantId}/platform-links/mer_unknown` }), expect: admin(404) },
  { route: 'POST /v1/admin/auditors', request: at('/v1/admin/auditors', { name: 'Matrix Auditor' }), expect: admin(201) },
  // Decisions on an account no one has, so the seeded seller stays in review; asking it for a document changes nothing else of it.
  { route: 'POST /v1/admin/accounts/:accountId/approve', request: at('/v1/admin/accounts/acct_unknown/approve', {}), expect: admin(404) },
  { route: 'POST /v1/admin/accounts/:accountId/reject', request: at('/v1/admin/accounts/acct_unknown/reject', { reason: 'Matrix refusal' }), expect: admin(404) },
  {
    route: 'POST /v1/admin/accounts/:accountId/request-information',
    request: (r) => ({ path: `/v1/admin/accounts/${r.accountId}/request-information`, body: { requirements: [{ kind: 'identity', dueBy: '2040-01-01T00:00:00Z' }] } }),
    expect: admin(200),
  },
  { route: 'GET /v1/admin/accounts/:accountId/documents', request: (r) => ({ path: `/v1/admin/accounts/${r.accountId}/documents` }), expect: admin(200) },
  { route: 'GET /v1/admin/accounts/:accountId/documents/:documentId', request: (r) => ({ path: `/v1/admin/accounts/${r.accountId}/documents/doc_unknown` }), expect: admin(404) },
  { route: 'ANY /admin/queues/**', request: placeholders, expect: admin(GRANTED) },
  { route: 'GET /v1/audit/events', request: at('/v1/audit/events?limit=5'), expect: audit(200) },
  { route: 'GET /v1/audit/events.csv', request: at('/v1/audit/events.csv?limit=5'), expect: audit(200) },
  { route: 'GET /v1/audit/streams/:streamId', request: (r) => ({ path: `/v1/audit/streams/order-${r.paidOrderId}` }), expect: audit(200) },
  { route: 'GET /v1/audit/escrows/:escrowId', request: (r) => ({ path: `/v1/audit/escrows/${r.heldEscrowId}` }), expect: audit(200) },
  { route: 'GET /v1/audit/ledger/trial-balance', request: at('/v1/audit/ledger/trial-balance?mode=test'), expect: audit(200) },
  { route: 'GET /v1/audit/ledger/balances', request: at('/v1/audit/ledger/balances?mode=live'), expect: audit(200) },
  { route: 'GET /v1/audit/ledger/accounts/:account/entries', request: at('/v1/audit/ledger/accounts/provider:clearing/entries'), expect: audit(200) },
  { route: 'GET /v1/audit/integrity', request: at('/v1/audit/integrity'), expect: audit(200) },

  // ---- public: customers, the provider, operations, documentation ---------------------------
  { route: 'GET /checkout/:id', request: (r) => ({ path: `/checkout/${r.pendingOrderId}` }), expect: open(200) },
  { route: 'GET /checkout/:id/status', request: (r) => ({ path: `/checkout/${r.pendingOrderId}/status` }), expect: open(200) },
  { route: 'GET /receipts/:id', request: (r) => ({ path: `/receipts/${r.paidOrderId}` }), expect: open(200) },
  // Paying a paid order: the same refusal whatever key comes along (a key grants nothing here).
  { route: 'POST /checkout/:id/pay', request: (r) => ({ path: `/checkout/${r.paidOrderId}/pay`, body: {} }), expect: open(409) },
  { route: 'POST /checkout/:id/otp', request: (r) => ({ path: `/checkout/${r.paidOrderId}/otp`, body: { otp: '123456' } }), expect: open(409) },
  // Authenticated by the provider's HMAC signature only: no key stands in for it.
  {
    route: 'POST /v1/providers/:provider/notifications',
    request: (r) => ({ path: '/v1/providers/sandbox/notifications', body: { id: 'ntf_matrix', type: 'payment.succeeded', orderId: r.pendingOrderId, externalReferenceId: 'x', amount: 250.75, occurredAt: new Date().toISOString() } }),
    expect: open(401),
  },
  { route: 'GET /health/live', request: at('/health/live'), expect: open(200) },
  { route: 'GET /health/ready', request: at('/health/ready'), expect: open(200) },
  // Scraped from inside the deployment's network; carries no merchant data.
  { route: 'GET /metrics', request: at('/metrics'), expect: open(200) },
  { route: 'GET /docs/**', request: (_, route) => ({ path: route.replace(/\*$/, 'swagger-ui.css') }), expect: open(200) },
  { route: 'GET /docs', request: at('/docs'), expect: open(200) },
  // Registered by Swagger UI for a file its distribution does not ship.
  { route: 'GET /docs/LICENSE', request: at('/docs/LICENSE'), expect: open(404) },
  { route: 'GET /docs-json', request: at('/docs-json'), expect: open(200) },
  { route: 'GET /docs-yaml', request: at('/docs-yaml'), expect: open(200) },
  { route: 'GET /assets/console.css', request: at('/assets/console.css'), expect: open(200) },

  // ---- consoles: cookie sessions, never API keys --------------------------------------------
  { route: 'GET /dashboard/sign-in', request: at('/dashboard/sign-in'), expect: open(200) },
  { route: 'GET /dashboard/invitation', request: at('/dashboard/invitation'), expect: open(200) },
  // The hosted onboarding page opens from an account link's token, never a key: an unknown token, or no link opened, finds nothing.
  { route: 'GET /onboarding/:token', request: placeholders, expect: open(404) },
  { route: 'GET /onboarding', request: at('/onboarding'), expect: open(404) },
  { route: 'POST /onboarding', request: at('/onboarding', { name: 'x' }), expect: open(403) },
  { route: 'POST /onboarding/documents', request: at('/onboarding/documents', { documentKind: 'identity' }), expect: open(403) },
  // A form posted without the token of a page this browser loaded is refused before anything else.
  { route: 'POST /dashboard/sign-in', request: at('/dashboard/sign-in', { email: 'x@example.com', password: 'x' }), expect: open(403) },
  { route: 'POST /dashboard/invitation', request: at('/dashboard/invitation', { token: 'inv_x', password: 'x', confirm: 'x' }), expect: open(403) },
  // Payouts and statements: a key that worked would set where the owner's money goes, or pay it out.
  { route: 'GET /dashboard/payouts', request: at('/dashboard/payouts'), expect: signInFirst, location: '/dashboard/sign-in' },
  {
    route: 'POST /dashboard/payouts/destination',
    request: at('/dashboard/payouts/destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Matrix Shop' }),
    expect: signInFirst,
    location: '/dashboard/sign-in',
  },
  { route: 'GET /dashboard/payouts/new', request: at('/dashboard/payouts/new'), expect: signInFirst, location: '/dashboard/sign-in' },
  { route: 'POST /dashboard/payouts', request: at('/dashboard/payouts', {}), expect: signInFirst, location: '/dashboard/sign-in' },
  { route: 'GET /dashboard/payouts/:payoutId', request: placeholders, expect: signInFirst, location: '/dashboard/sign-in' },
  { route: 'GET /dashboard/payouts/:payoutId/report.csv', request: placeholders, expect: signInFirst, location: '/dashboard/sign-in' },
  { route: 'GET /dashboard/statement', request: at('/dashboard/statement?from=2026-01-01&to=2030-12-31'), expect: signInFirst, location: '/dashboard/sign-in' },
  { route: 'GET /dashboard/statement.csv', request: at('/dashboard/statement.csv?from=2026-01-01&to=2030-12-31'), expect: signInFirst, location: '/dashboard/sign-in' },
  { route: 'GET /dashboard/payouts/settings', request: at('/dashboard/payouts/settings'), expect: signInFirst, location: '/dashboard/sign-in' },
  { route: 'POST /dashboard/payouts/settings', request: at('/dashboard/payouts/settings', { schedule: 'manual' }), expect: signInFirst, location: '/dashboard/sign-in' },
  // The mode switch opens a tenant: without a session it opens nothing, whatever mode it names.
  { route: 'POST /dashboard/mode', request: at('/dashboard/mode', { mode: 'live' }), expect: signInFirst, location: '/dashboard/sign-in' },
  { route: 'GET /dashboard/**', request: dashboardPath, expect: signInFirst, location: '/dashboard/sign-in' },
  { route: 'POST /dashboard/**', request: dashboardPath, expect: signInFirst, location: '/dashboard/sign-in' },
  { route: 'GET /dashboard', request: at('/dashboard'), expect: signInFirst, location: '/dashboard/sign-in' },
  { route: 'GET /audit/sign-in', request: at('/audit/sign-in'), expect: open(200) },
  { route: 'POST /audit/sign-in', request: at('/audit/sign-in', { key: 'x' }), expect: open(403) },
  // The audit console's one write, named on its own: recording a reconciliation run is a signed-in auditor's act (the form's token is checked next).
  { route: 'GET /audit/reconciliations', request: at('/audit/reconciliations'), expect: signInFirst, location: '/audit/sign-in' },
  { route: 'POST /audit/reconciliations', request: at('/audit/reconciliations', { provider: 'sandbox' }), expect: signInFirst, location: '/audit/sign-in' },
  { route: 'GET /audit/statement', request: (r) => ({ path: `/audit/statement?merchant=${r.merchant.merchantId}` }), expect: signInFirst, location: '/audit/sign-in' },
  { route: 'GET /audit/statement.csv', request: (r) => ({ path: `/audit/statement.csv?merchant=${r.merchant.merchantId}` }), expect: signInFirst, location: '/audit/sign-in' },
  { route: 'GET /audit/**', request: (r, route) => ({ path: route.replace(':escrowId', r.heldEscrowId) }), expect: signInFirst, location: '/audit/sign-in' },
  { route: 'POST /audit/**', request: (_, route) => ({ path: route }), expect: signInFirst, location: '/audit/sign-in' },
  { route: 'GET /audit', request: at('/audit'), expect: signInFirst, location: '/audit/sign-in' },
];

/** A dashboard route addressed at the owner's resources, so a key that worked would show it. */
function dashboardPath(r: SeededResources, route: string): AccessRequest {
  const path = route
    .replace(':orderId', r.paidOrderId)
    .replace(':escrowId', route.includes('release') || route.includes('refund') ? r.heldEscrowId : r.escrowToCancelId)
    .replace(':deliveryId', r.deliveryId);
  const body = route.endsWith('release') ? { merchantId: r.merchant.seller1 } : route.endsWith('refund') ? { merchantId: r.merchant.courier1, amount: '0.01', reason: 'damaged' } : {};
  return { path, body: route.startsWith('/dashboard/escrows') ? body : {} };
}

/** The decision for a served route: its own entry, its GET entry for HEAD, or the prefix entry covering it. */
export function accessFor(method: string, url: string): RouteAccess | undefined {
  const key = (m: string) => `${m} ${url}`;
  const exact = ROUTE_ACCESS.find((entry) => entry.route === key(method)) ?? (method === 'HEAD' ? ROUTE_ACCESS.find((entry) => entry.route === key('GET')) : undefined);
  if (exact) return exact;
  return ROUTE_ACCESS.find((entry) => {
    const [entryMethod, pattern] = entry.route.split(' ');
    if (!pattern.endsWith('/**')) return false;
    const methodMatches = entryMethod === 'ANY' || entryMethod === method || (method === 'HEAD' && entryMethod === 'GET');
    const prefix = pattern.slice(0, -2);
    return methodMatches && (url.startsWith(prefix) || url === prefix.slice(0, -1));
  });
}
