import { createServer, type Server } from 'node:http';
import type { RunningApp } from './app';
import { ConsoleClient, invitationToken, signedInMerchant } from './console-client';
import { escrowRequest, linkToPlatform, orderRequest, registerMerchant, type TestMerchant, withSellers } from './fixtures';
import { call } from './http';
import { waitFor } from './wait';

/**
 * The tenant isolation matrix's world and decisions (test/e2e/tenant-isolation.spec.ts): two platforms
 * on one service, A and B, each with its sellers, money, escrows, transfers, endpoints and deliveries,
 * a plain merchant C, and a merchant L that linked itself to A. Every request is sent as A (its key,
 * its owner signed in to the dashboard, or its seller signed in) and names B's or C's parties: by the
 * `x-account-id` header, by a body field, or by B's ids in the path. Each one must be refused as the
 * route refuses a party it does not know, write nothing and leave B's, C's and L's balances as they
 * were (docs/concepts/authority.md). Each route also has a control, A acting on its own party, which
 * must succeed: a matrix whose probes were refused for another reason would fail there.
 *
 * To add a route: one entry keyed by `METHOD /url` exactly as servedRoutes() lists it, with its
 * control and the fields of its body that name a party. A POST or DELETE route of the merchant API or
 * the dashboard without an entry fails the spec, naming it.
 */

const PASSWORD = 'tenant isolation password';

/** A merchant as its key authenticates it. */
export type Party = Pick<TestMerchant, 'merchantId' | 'apiSecret'>;

export interface Tenant extends Party {
  seller1: string;
  courier1: string;
  /** Orders: paid (its PAID callback delivered), and waiting for payment. */
  paidOrderId: string;
  pendingOrderId: string;
  deliveryId: string;
  /** Escrows: HELD (seller-1 600.50, courier-1 400), seller-1 released, one disputed (courier-1 frozen), and waiting for payment. */
  heldEscrowId: string;
  releasedEscrowId: string;
  disputedEscrowId: string;
  pendingEscrowId: string;
  /** A bonus of 5 ETB to seller-1. */
  transferId: string;
  endpointId: string;
  /** A test clock, standing on 1 January 2030. */
  testClockId: string;
}

export interface World {
  a: Tenant & {
    owner: ConsoleClient;
    /** seller-1's owner, signed in to the dashboard. */
    seller: ConsoleClient;
    /** seller-1 on the hosted onboarding page, opened by an account link A made for it. */
    onboarding: ConsoleClient;
    /** Spares for the controls that use one up. */
    secondPendingEscrowId: string;
    dashboardDisputeEscrowId: string;
    endpointToDeleteId: string;
    dashboardEndpointId: string;
    dashboardEndpointToDeleteId: string;
    testClockToDeleteId: string;
    /** An account of A's that holds nothing: the dashboard's Close account control closes it. */
    closableAccountId: string;
  };
  /** `documentId`: an identity document of B's seller-1. */
  b: Tenant & { owner: ConsoleClient; payoutId: string; documentId: string };
  c: Party & { paidOrderId: string };
  /** Linked itself to A: A may debit and credit it, never redirect it. */
  linked: Party;
  close(): Promise<void>;
}

/** A request: to the API with A's key (`headers` added), or a form posted in a browser with the token of `csrfFrom`. */
export interface Attempt {
  path: string;
  method?: 'POST' | 'DELETE' | 'GET';
  body?: Record<string, unknown>;
  /** API only: sent as multipart/form-data with `body`'s fields before these parts (a document upload). */
  multipart?: Record<string, string | Blob>;
  headers?: Record<string, string>;
  /** Dashboard forms: the page whose form token is sent along (A's owner's or its seller's). */
  csrfFrom?: string;
}

export interface Refusal {
  status: number;
  /** The problem's code (API only: the dashboard answers a page). */
  code?: string;
}

/** Who sends: A's key, A's owner in the dashboard, A's seller-1 in the dashboard, or seller-1 on the onboarding page A's link opened. */
export type Surface = 'api' | 'dashboard' | 'seller' | 'onboarding';

export interface PartyField {
  /** How the probe is described: the field's name. */
  field: string;
  /** The control's request with this field naming `party`. */
  naming(w: World, party: string): Attempt;
  refusal: Refusal;
}

export interface IsolationEntry {
  route: string;
  surface: Surface;
  /** A acting on its own party, and the status that says it acted. */
  control?: (w: World) => Attempt & { status: number };
  /** Why a route has no control (what it would use up is another tenant's or another test's). */
  noControl?: string;
  /** The fields that name a party: each is tried with B's seller, B and C. */
  parties?: PartyField[];
  /** B's resources in A's path. */
  paths?: (w: World) => Attempt[];
  /** What a path naming B's resource gets: 404 ABC_001 unless the route has a code of its own. */
  pathRefusal?: Refusal;
  /** Attempts of a route without a control, which the ones above cannot derive. */
  others?: (w: World) => Array<{ label: string; attempt: Attempt; refusal: Refusal }>;
  /** A field the route does not take, naming B's seller: `merchantId` unless the route takes one. */
  unknownField?: string;
}

export const NOT_FOUND: Refusal = { status: 404, code: 'ABC_001' };
const UNKNOWN_PARTY: Refusal = { status: 404, code: 'UNKNOWN_TRANSFER_PARTY' };
const UNKNOWN_ALLOCATION: Refusal = { status: 404, code: 'UNKNOWN_ALLOCATION_MERCHANT' };
/** An escrow's allocations are chosen by their payee: any other id, another tenant's or none at all, is no allocation of it. */
const NO_SUCH_ALLOCATION: Refusal = { status: 409, code: 'ALLOCATION_NOT_FOUND' };
const NO_SUCH_ALLOCATION_PAGE: Refusal = { status: 409 };
export const UNKNOWN_FIELD: Refusal = { status: 400, code: 'UNKNOWN_FIELD' };
const PAGE_NOT_FOUND: Refusal = { status: 404 };

/** What a form field naming a party gets when it is sent to an escrow of A's that has no such allocation. */
const escrowField = (path: (w: World) => string, body: (w: World) => Record<string, unknown>, refusal: Refusal): PartyField => ({
  field: 'merchantId',
  naming: (w, party) => ({ path: path(w), body: { ...body(w), merchantId: party } }),
  refusal,
});

/** A seller's identity document, as a platform uploads one. */
const document = () => ({ kind: 'identity', file: new Blob([Buffer.from('%PDF-1.7\nidentity of the seller')], { type: 'application/pdf' }) });

const destination = { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Platform A' };
const linkUrls = { returnUrl: 'https://a.example/sellers/done', refreshUrl: 'https://a.example/sellers/again' };

export const ISOLATION: IsolationEntry[] = [
  // ---- merchant API ------------------------------------------------------------------------------
  // An order is the caller's own: no party to name, only the header and a field it does not take.
  { route: 'POST /v1/trdp/order', surface: 'api', control: () => ({ path: '/v1/trdp/order', body: orderRequest(), status: 201 }) },
  {
    route: 'POST /v1/trdp/order/:orderId/refund',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/order/${w.a.paidOrderId}/refund`, body: { amount: 0.01, reason: 'damaged' }, status: 200 }),
    paths: (w) => [{ path: `/v1/trdp/order/${w.b.paidOrderId}/refund`, body: { amount: 0.01, reason: 'damaged' } }, { path: `/v1/trdp/order/${w.c.paidOrderId}/refund`, body: { amount: 0.01, reason: 'damaged' } }],
  },
  {
    route: 'POST /v1/trdp/escrow/order',
    surface: 'api',
    control: (w) => ({ path: '/v1/trdp/escrow/order', body: escrowRequest({ callbackURL: undefined, allocations: [{ merchantId: w.a.seller1, amount: 1000.5 }] }), status: 201 }),
    parties: [
      { field: 'allocations[0].merchantId', naming: (_, party) => ({ path: '/v1/trdp/escrow/order', body: escrowRequest({ callbackURL: undefined, allocations: [{ merchantId: party, amount: 1000.5 }] }) }), refusal: UNKNOWN_ALLOCATION },
      {
        field: 'allocations[1].merchantId',
        naming: (w, party) => ({ path: '/v1/trdp/escrow/order', body: escrowRequest({ callbackURL: undefined, allocations: [{ merchantId: w.a.seller1, amount: 600.5 }, { merchantId: party, amount: 400 }] }) }),
        refusal: UNKNOWN_ALLOCATION,
      },
    ],
    unknownField: 'platformId',
  },
  {
    route: 'POST /v1/trdp/escrow/:escrowId/release',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/escrow/${w.a.heldEscrowId}/release`, body: { merchantId: w.a.seller1, amount: 1 }, status: 200 }),
    parties: [
      escrowField((w) => `/v1/trdp/escrow/${w.a.heldEscrowId}/release`, () => ({ amount: 1 }), NO_SUCH_ALLOCATION),
      { field: 'allocations[].merchantId', naming: (w, party) => ({ path: `/v1/trdp/escrow/${w.a.heldEscrowId}/release`, body: { allocations: [{ merchantId: party, amount: 1 }] } }), refusal: NO_SUCH_ALLOCATION },
    ],
    paths: (w) => [{ path: `/v1/trdp/escrow/${w.b.heldEscrowId}/release`, body: { merchantId: w.b.seller1, amount: 1 } }],
    unknownField: 'platformId',
  },
  {
    route: 'POST /v1/trdp/escrow/:escrowId/refund',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/escrow/${w.a.heldEscrowId}/refund`, body: { merchantId: w.a.courier1, amount: 1, reason: 'damaged' }, status: 200 }),
    parties: [escrowField((w) => `/v1/trdp/escrow/${w.a.heldEscrowId}/refund`, () => ({ amount: 1, reason: 'damaged' }), NO_SUCH_ALLOCATION)],
    paths: (w) => [{ path: `/v1/trdp/escrow/${w.b.heldEscrowId}/refund`, body: { merchantId: w.b.courier1, amount: 1, reason: 'damaged' } }],
    unknownField: 'platformId',
  },
  {
    route: 'POST /v1/trdp/escrow/:escrowId/reversals',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/escrow/${w.a.releasedEscrowId}/reversals`, body: { merchantId: w.a.seller1, amount: 1, reason: 'returned' }, status: 201 }),
    parties: [escrowField((w) => `/v1/trdp/escrow/${w.a.releasedEscrowId}/reversals`, () => ({ amount: 1, reason: 'returned' }), NO_SUCH_ALLOCATION)],
    paths: (w) => [{ path: `/v1/trdp/escrow/${w.b.releasedEscrowId}/reversals`, body: { merchantId: w.b.seller1, amount: 1, reason: 'returned' } }],
    unknownField: 'platformId',
  },
  {
    route: 'POST /v1/trdp/escrow/:escrowId/auto-release',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/escrow/${w.a.heldEscrowId}/auto-release`, body: { autoReleaseAt: null }, status: 200 }),
    paths: (w) => [{ path: `/v1/trdp/escrow/${w.b.heldEscrowId}/auto-release`, body: { autoReleaseAt: null } }],
  },
  {
    route: 'POST /v1/trdp/escrow/:escrowId/dispute',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/escrow/${w.a.disputedEscrowId}/dispute`, body: { merchantId: w.a.seller1, reason: 'not delivered' }, status: 200 }),
    parties: [escrowField((w) => `/v1/trdp/escrow/${w.a.heldEscrowId}/dispute`, () => ({ reason: 'not delivered' }), NO_SUCH_ALLOCATION)],
    paths: (w) => [{ path: `/v1/trdp/escrow/${w.b.heldEscrowId}/dispute`, body: { merchantId: w.b.seller1, reason: 'not delivered' } }],
    unknownField: 'platformId',
  },
  {
    route: 'POST /v1/trdp/escrow/:escrowId/dispute/resolve',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/escrow/${w.a.disputedEscrowId}/dispute/resolve`, body: { merchantId: w.a.courier1, release: 400, refund: 0 }, status: 200 }),
    parties: [
      escrowField((w) => `/v1/trdp/escrow/${w.a.disputedEscrowId}/dispute/resolve`, () => ({ release: 400, refund: 0 }), NO_SUCH_ALLOCATION),
      { field: 'allocations[].merchantId', naming: (w, party) => ({ path: `/v1/trdp/escrow/${w.a.disputedEscrowId}/dispute/resolve`, body: { allocations: [{ merchantId: party, release: 400, refund: 0 }] } }), refusal: NO_SUCH_ALLOCATION },
    ],
    paths: (w) => [{ path: `/v1/trdp/escrow/${w.b.disputedEscrowId}/dispute/resolve`, body: { merchantId: w.b.courier1, release: 400, refund: 0 } }],
    unknownField: 'platformId',
  },
  {
    route: 'POST /v1/trdp/escrow/:escrowId/cancel',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/escrow/${w.a.pendingEscrowId}/cancel`, body: {}, status: 200 }),
    paths: (w) => [{ path: `/v1/trdp/escrow/${w.b.pendingEscrowId}/cancel`, body: {} }],
  },
  {
    route: 'POST /v1/trdp/verify',
    surface: 'api',
    control: (w) => ({ path: '/v1/trdp/verify', body: { orderId: w.a.paidOrderId }, status: 200 }),
    paths: (w) => [{ path: '/v1/trdp/verify', body: { orderId: w.b.pendingOrderId } }],
  },
  {
    route: 'POST /v1/sandbox/orders/:id/complete',
    surface: 'api',
    control: (w) => ({ path: `/v1/sandbox/orders/${w.a.pendingOrderId}/complete`, body: { outcome: 'FAILED' }, status: 200 }),
    paths: (w) => [{ path: `/v1/sandbox/orders/${w.b.pendingOrderId}/complete`, body: { outcome: 'PAID' } }],
  },
  {
    route: 'POST /v1/trdp/callbacks/:deliveryId/redeliver',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/callbacks/${w.a.deliveryId}/redeliver`, status: 202 }),
    paths: (w) => [{ path: `/v1/trdp/callbacks/${w.b.deliveryId}/redeliver` }],
  },
  { route: 'POST /v1/trdp/webhook-secret/rotate', surface: 'api', control: () => ({ path: '/v1/trdp/webhook-secret/rotate', status: 200 }) },
  { route: 'POST /v1/trdp/payout-destination', surface: 'api', control: () => ({ path: '/v1/trdp/payout-destination', body: destination, status: 200 }) },
  {
    route: 'POST /v1/trdp/payout-settings',
    surface: 'api',
    control: () => ({ path: '/v1/trdp/payout-settings', body: { schedule: 'manual', minimumAmount: 0.01 }, status: 200 }),
  },
  // Runs after the transfer and refund controls: A's whole available balance is paid out.
  { route: 'POST /v1/trdp/payouts', surface: 'api', control: () => ({ path: '/v1/trdp/payouts', status: 201 }) },
  // A pauses its own payouts and resumes them: B's are never named, only reached by the header.
  { route: 'POST /v1/trdp/payouts/pause', surface: 'api', control: () => ({ path: '/v1/trdp/payouts/pause', body: { reason: 'isolation review' }, status: 200 }) },
  { route: 'POST /v1/trdp/payouts/resume', surface: 'api', control: () => ({ path: '/v1/trdp/payouts/resume', status: 200 }) },
  {
    route: 'POST /v1/trdp/payouts/:payoutId/cancel',
    surface: 'api',
    noControl: "A's payout is handed to the provider at once; a cancellation while REQUESTED is test/e2e/payouts-steering.spec.ts's",
    paths: (w) => [{ path: `/v1/trdp/payouts/${w.b.payoutId}/cancel` }],
  },
  {
    route: 'POST /v1/trdp/webhook-endpoints',
    surface: 'api',
    control: () => ({ path: '/v1/trdp/webhook-endpoints', body: { url: 'https://a.example/hooks', events: ['PAYOUT_PAID'] }, status: 201 }),
  },
  {
    route: 'POST /v1/trdp/webhook-endpoints/:endpointId',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/webhook-endpoints/${w.a.endpointId}`, body: { description: 'Payouts' }, status: 200 }),
    paths: (w) => [{ path: `/v1/trdp/webhook-endpoints/${w.b.endpointId}`, body: { url: 'https://a.example/stolen' } }],
  },
  {
    route: 'POST /v1/trdp/webhook-endpoints/:endpointId/secret',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/webhook-endpoints/${w.a.endpointId}/secret`, status: 200 }),
    paths: (w) => [{ path: `/v1/trdp/webhook-endpoints/${w.b.endpointId}/secret` }],
  },
  {
    route: 'POST /v1/trdp/webhook-endpoints/:endpointId/test',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/webhook-endpoints/${w.a.endpointId}/test`, status: 202 }),
    paths: (w) => [{ path: `/v1/trdp/webhook-endpoints/${w.b.endpointId}/test` }],
  },
  {
    route: 'DELETE /v1/trdp/webhook-endpoints/:endpointId',
    surface: 'api',
    control: (w) => ({ method: 'DELETE', path: `/v1/trdp/webhook-endpoints/${w.a.endpointToDeleteId}`, status: 200 }),
    paths: (w) => [{ method: 'DELETE', path: `/v1/trdp/webhook-endpoints/${w.b.endpointId}` }],
  },
  // A test clock is the caller's own: no party to name; another tenant's clock is not found.
  { route: 'POST /v1/trdp/test-clocks', surface: 'api', control: () => ({ path: '/v1/trdp/test-clocks', body: { frozenTime: '2030-01-01T00:00:00Z' }, status: 201 }) },
  {
    route: 'POST /v1/trdp/test-clocks/:testClockId/advance',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/test-clocks/${w.a.testClockId}/advance`, body: { frozenTime: '2030-01-02T00:00:00Z' }, status: 200 }),
    paths: (w) => [{ path: `/v1/trdp/test-clocks/${w.b.testClockId}/advance`, body: { frozenTime: '2030-01-03T00:00:00Z' } }],
  },
  {
    route: 'DELETE /v1/trdp/test-clocks/:testClockId',
    surface: 'api',
    control: (w) => ({ method: 'DELETE', path: `/v1/trdp/test-clocks/${w.a.testClockToDeleteId}`, status: 200 }),
    paths: (w) => [{ method: 'DELETE', path: `/v1/trdp/test-clocks/${w.b.testClockId}` }],
  },
  {
    route: 'POST /v1/trdp/transfers',
    surface: 'api',
    control: (w) => ({ path: '/v1/trdp/transfers', body: { from: w.a.seller1, amount: 1, description: 'penalty' }, status: 201 }),
    parties: [
      { field: 'to', naming: (_, party) => ({ path: '/v1/trdp/transfers', body: { to: party, amount: 1, description: 'bonus' } }), refusal: UNKNOWN_PARTY },
      { field: 'from', naming: (_, party) => ({ path: '/v1/trdp/transfers', body: { from: party, amount: 1, description: 'penalty', allowNegative: true } }), refusal: UNKNOWN_PARTY },
    ],
  },
  {
    route: 'POST /v1/trdp/transfers/:transferId/reversals',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/transfers/${w.a.transferId}/reversals`, body: { amount: 1 }, status: 201 }),
    paths: (w) => [{ path: `/v1/trdp/transfers/${w.b.transferId}/reversals`, body: { amount: 1 } }],
  },
  { route: 'POST /v1/trdp/accounts', surface: 'api', control: () => ({ path: '/v1/trdp/accounts', body: { name: 'Isolation Seller', type: 'individual' }, status: 201 }) },
  {
    route: 'POST /v1/trdp/accounts/:accountId',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/accounts/${w.a.seller1}`, body: { email: 'seller@a.example' }, status: 200 }),
    paths: (w) => [{ path: `/v1/trdp/accounts/${w.b.seller1}`, body: { email: 'thief@a.example' } }],
  },
  // A closes its own account only: its seller-1, which holds money and allocations, is refused the closing itself (409 ACCOUNT_NOT_SETTLED); B's is not found.
  {
    route: 'POST /v1/trdp/accounts/:accountId/close',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/accounts/${w.a.seller1}/close`, body: { reason: 'Left the marketplace' }, status: 409 }),
    paths: (w) => [{ path: `/v1/trdp/accounts/${w.b.seller1}/close`, body: { reason: 'Left the marketplace' } }],
  },
  // A link lets a seller act as its account on the hosted page: A's own accounts only.
  {
    route: 'POST /v1/trdp/account-links',
    surface: 'api',
    control: (w) => ({ path: '/v1/trdp/account-links', body: { accountId: w.a.courier1, ...linkUrls }, status: 201 }),
    parties: [{ field: 'accountId', naming: (_, party) => ({ path: '/v1/trdp/account-links', body: { accountId: party, ...linkUrls } }), refusal: NOT_FOUND }],
  },
  {
    route: 'POST /v1/trdp/accounts/:accountId/documents',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/accounts/${w.a.seller1}/documents`, multipart: document(), status: 201 }),
    paths: (w) => [{ path: `/v1/trdp/accounts/${w.b.seller1}/documents`, multipart: document() }],
  },
  {
    route: 'POST /v1/trdp/accounts/:accountId/invitation',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/accounts/${w.a.courier1}/invitation`, body: { email: 'courier@a.example' }, status: 201 }),
    paths: (w) => [{ path: `/v1/trdp/accounts/${w.b.seller1}/invitation`, body: { email: 'thief@a.example' } }],
  },
  // A lets a platform move its own money: its own decision, whichever merchant it names. An account is no platform.
  {
    route: 'POST /v1/trdp/platform-links',
    surface: 'api',
    control: (w) => ({ path: '/v1/trdp/platform-links', body: { platformId: w.c.merchantId }, status: 201 }),
    parties: [{ field: 'platformId (an account)', naming: (w) => ({ path: '/v1/trdp/platform-links', body: { platformId: w.b.seller1 } }), refusal: NOT_FOUND }],
  },
  // Runs after the link above: A revokes its own link; B's links are not A's to revoke.
  {
    route: 'DELETE /v1/trdp/platform-links/:platformId',
    surface: 'api',
    control: (w) => ({ method: 'DELETE', path: `/v1/trdp/platform-links/${w.c.merchantId}`, status: 200 }),
    paths: (w) => [{ method: 'DELETE', path: `/v1/trdp/platform-links/${w.b.merchantId}` }],
    pathRefusal: { status: 404, code: 'PLATFORM_LINK_NOT_FOUND' },
  },
  // A's own commission, and its own seller's override; B's seller in the path is not found.
  { route: 'POST /v1/trdp/commission', surface: 'api', control: () => ({ path: '/v1/trdp/commission', body: { percentage: 10 }, status: 200 }) },
  { route: 'DELETE /v1/trdp/commission', surface: 'api', control: () => ({ method: 'DELETE', path: '/v1/trdp/commission', status: 200 }) },
  {
    route: 'POST /v1/trdp/accounts/:accountId/commission',
    surface: 'api',
    control: (w) => ({ path: `/v1/trdp/accounts/${w.a.seller1}/commission`, body: { percentage: 7 }, status: 200 }),
    paths: (w) => [{ path: `/v1/trdp/accounts/${w.b.seller1}/commission`, body: { percentage: 0 } }],
  },
  {
    route: 'DELETE /v1/trdp/accounts/:accountId/commission',
    surface: 'api',
    control: (w) => ({ method: 'DELETE', path: `/v1/trdp/accounts/${w.a.seller1}/commission`, status: 200 }),
    paths: (w) => [{ method: 'DELETE', path: `/v1/trdp/accounts/${w.b.seller1}/commission` }],
  },

  // What A reads of B's: B's payout, transfer, escrow, order, endpoint and seller are not found.
  ...reads('api', [
    ['/v1/trdp/payouts/:payoutId', (w) => `/v1/trdp/payouts/${w.b.payoutId}`],
    ['/v1/trdp/payouts/:payoutId/movements', (w) => `/v1/trdp/payouts/${w.b.payoutId}/movements`],
    ['/v1/trdp/payouts/:payoutId/report', (w) => `/v1/trdp/payouts/${w.b.payoutId}/report`],
    ['/v1/trdp/payouts/:payoutId/report.csv', (w) => `/v1/trdp/payouts/${w.b.payoutId}/report.csv`],
    ['/v1/trdp/transfers/:transferId', (w) => `/v1/trdp/transfers/${w.b.transferId}`],
    ['/v1/trdp/escrow/:escrowId', (w) => `/v1/trdp/escrow/${w.b.heldEscrowId}`],
    ['/v1/trdp/escrow/:escrowId/releases', (w) => `/v1/trdp/escrow/${w.b.heldEscrowId}/releases`],
    ['/v1/trdp/order/:orderId', (w) => `/v1/trdp/order/${w.b.paidOrderId}`],
    ['/v1/trdp/webhook-endpoints/:endpointId', (w) => `/v1/trdp/webhook-endpoints/${w.b.endpointId}`],
    ['/v1/trdp/accounts/:accountId', (w) => `/v1/trdp/accounts/${w.b.seller1}`],
    ['/v1/trdp/accounts/:accountId/documents', (w) => `/v1/trdp/accounts/${w.b.seller1}/documents`],
    ['/v1/trdp/accounts/:accountId/documents/:documentId', (w) => `/v1/trdp/accounts/${w.b.seller1}/documents/${w.b.documentId}`],
    ['/v1/trdp/test-clocks/:testClockId', (w) => `/v1/trdp/test-clocks/${w.b.testClockId}`],
  ]),

  // ---- the merchant dashboard, A's owner signed in -------------------------------------------------
  {
    route: 'POST /dashboard/transfers',
    surface: 'dashboard',
    control: (w) => ({ path: '/dashboard/transfers', body: { direction: 'from', party: w.a.seller1, amount: '1', description: 'Penalty' }, csrfFrom: '/dashboard/transfers', status: 303 }),
    parties: [
      { field: 'party (to)', naming: (_, party) => ({ path: '/dashboard/transfers', body: { direction: 'to', party, amount: '1', description: 'Bonus' }, csrfFrom: '/dashboard/transfers' }), refusal: PAGE_NOT_FOUND },
      {
        field: 'party (from)',
        naming: (_, party) => ({ path: '/dashboard/transfers', body: { direction: 'from', party, amount: '1', description: 'Penalty', allowNegative: 'on' }, csrfFrom: '/dashboard/transfers' }),
        refusal: PAGE_NOT_FOUND,
      },
    ],
  },
  {
    route: 'POST /dashboard/escrows/:escrowId/release',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/escrows/${w.a.heldEscrowId}/release`, body: { merchantId: w.a.seller1, amount: '1' }, csrfFrom: `/dashboard/escrows/${w.a.heldEscrowId}`, status: 303 }),
    parties: [dashboardEscrowField('release', (w) => w.a.heldEscrowId, { amount: '1' })],
    paths: (w) => [{ path: `/dashboard/escrows/${w.b.heldEscrowId}/release`, body: { merchantId: w.b.seller1, amount: '1' }, csrfFrom: '/dashboard/orders' }],
    unknownField: 'accountId',
  },
  {
    route: 'POST /dashboard/escrows/:escrowId/refund',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/escrows/${w.a.heldEscrowId}/refund`, body: { merchantId: w.a.courier1, amount: '1', reason: 'damaged' }, csrfFrom: `/dashboard/escrows/${w.a.heldEscrowId}`, status: 303 }),
    parties: [dashboardEscrowField('refund', (w) => w.a.heldEscrowId, { amount: '1', reason: 'damaged' })],
    paths: (w) => [{ path: `/dashboard/escrows/${w.b.heldEscrowId}/refund`, body: { merchantId: w.b.courier1, amount: '1', reason: 'damaged' }, csrfFrom: '/dashboard/orders' }],
    unknownField: 'accountId',
  },
  {
    route: 'POST /dashboard/escrows/:escrowId/cancel',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/escrows/${w.a.secondPendingEscrowId}/cancel`, body: { reason: 'out of stock' }, csrfFrom: '/dashboard/orders', status: 303 }),
    paths: (w) => [{ path: `/dashboard/escrows/${w.b.pendingEscrowId}/cancel`, body: { reason: 'out of stock' }, csrfFrom: '/dashboard/orders' }],
  },
  {
    route: 'POST /dashboard/escrows/:escrowId/dispute',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/escrows/${w.a.dashboardDisputeEscrowId}/dispute`, body: { merchantId: w.a.courier1, reason: 'not delivered' }, csrfFrom: '/dashboard/orders', status: 303 }),
    parties: [dashboardEscrowField('dispute', (w) => w.a.heldEscrowId, { reason: 'not delivered' })],
    paths: (w) => [{ path: `/dashboard/escrows/${w.b.heldEscrowId}/dispute`, body: { merchantId: w.b.seller1, reason: 'not delivered' }, csrfFrom: '/dashboard/orders' }],
    unknownField: 'accountId',
  },
  {
    route: 'POST /dashboard/escrows/:escrowId/resolve',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/escrows/${w.a.dashboardDisputeEscrowId}/resolve`, body: { merchantId: w.a.courier1, release: '400', refund: '0' }, csrfFrom: '/dashboard/orders', status: 303 }),
    parties: [dashboardEscrowField('resolve', (w) => w.a.disputedEscrowId, { release: '400', refund: '0' })],
    paths: (w) => [{ path: `/dashboard/escrows/${w.b.disputedEscrowId}/resolve`, body: { merchantId: w.b.courier1, release: '400', refund: '0' }, csrfFrom: '/dashboard/orders' }],
    unknownField: 'accountId',
  },
  {
    route: 'POST /dashboard/escrows/:escrowId/reverse',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/escrows/${w.a.releasedEscrowId}/reverse`, body: { merchantId: w.a.seller1, amount: '1', reason: 'returned' }, csrfFrom: '/dashboard/orders', status: 303 }),
    parties: [dashboardEscrowField('reverse', (w) => w.a.releasedEscrowId, { amount: '1', reason: 'returned' })],
    paths: (w) => [{ path: `/dashboard/escrows/${w.b.releasedEscrowId}/reverse`, body: { merchantId: w.b.seller1, amount: '1', reason: 'returned' }, csrfFrom: '/dashboard/orders' }],
    unknownField: 'accountId',
  },
  {
    route: 'POST /dashboard/payouts/destination',
    surface: 'dashboard',
    control: () => ({ path: '/dashboard/payouts/destination', body: destination, csrfFrom: '/dashboard/payouts', status: 303 }),
  },
  {
    route: 'POST /dashboard/payouts',
    surface: 'dashboard',
    noControl: "A's available balance is paid out by the API's control (POST /v1/trdp/payouts)",
    others: (w) => [
      { label: "undeclared field merchantId: B's seller", attempt: { path: '/dashboard/payouts', body: { merchantId: w.b.seller1 }, csrfFrom: '/dashboard/payouts' }, refusal: { status: 400 } },
      { label: "amount and undeclared field accountId: B's seller", attempt: { path: '/dashboard/payouts', body: { amount: '1', accountId: w.b.seller1 }, csrfFrom: '/dashboard/payouts' }, refusal: { status: 400 } },
    ],
  },
  {
    route: 'POST /dashboard/payouts/settings',
    surface: 'dashboard',
    control: () => ({ path: '/dashboard/payouts/settings', body: { schedule: 'manual', minimumAmount: '0.01' }, csrfFrom: '/dashboard/payouts/settings', status: 303 }),
  },
  {
    route: 'POST /dashboard/sellers/:accountId/invitation',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/sellers/${w.a.courier1}/invitation`, body: { email: 'courier-owner@a.example' }, csrfFrom: '/dashboard/sellers', status: 200 }),
    paths: (w) => [{ path: `/dashboard/sellers/${w.b.seller1}/invitation`, body: { email: 'thief@a.example' }, csrfFrom: '/dashboard/sellers' }],
  },
  // A seller's page acts for A's own account only, as the API with x-account-id: B's seller (or B's payout) in
  // the path is not found, and a field the form does not read, naming B's parties, is refused.
  {
    route: 'POST /dashboard/sellers/:accountId/payouts/pause',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/sellers/${w.a.courier1}/payouts/pause`, body: { reason: 'isolation review' }, csrfFrom: '/dashboard/sellers', status: 303 }),
    paths: (w) => [{ path: `/dashboard/sellers/${w.b.seller1}/payouts/pause`, body: { reason: 'isolation review' }, csrfFrom: '/dashboard/sellers' }],
    others: (w) => [sellerFormField(`/dashboard/sellers/${w.a.courier1}/payouts/pause`, { reason: 'isolation review', merchantId: w.b.merchantId })],
    unknownField: 'accountId',
  },
  // Runs after the pause: courier-1's payouts run again.
  {
    route: 'POST /dashboard/sellers/:accountId/payouts/resume',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/sellers/${w.a.courier1}/payouts/resume`, csrfFrom: '/dashboard/sellers', status: 303 }),
    paths: (w) => [{ path: `/dashboard/sellers/${w.b.seller1}/payouts/resume`, csrfFrom: '/dashboard/sellers' }],
    unknownField: 'accountId',
  },
  {
    route: 'POST /dashboard/sellers/:accountId/payouts',
    surface: 'dashboard',
    noControl: "A's sellers' payouts wait for their review (accounts pending verification): a verified seller's payout is test/e2e/dashboard-payout-forms.spec.ts's",
    paths: (w) => [{ path: `/dashboard/sellers/${w.b.seller1}/payouts`, body: { amount: '1' }, csrfFrom: '/dashboard/sellers' }],
    others: (w) => [
      sellerFormField(`/dashboard/sellers/${w.a.seller1}/payouts`, { amount: '1', accountId: w.b.seller1 }),
      sellerFormField(`/dashboard/sellers/${w.a.seller1}/payouts`, { merchantId: w.b.merchantId }),
    ],
  },
  {
    route: 'POST /dashboard/sellers/:accountId/payouts/:payoutId/cancel',
    surface: 'dashboard',
    noControl: "A's payouts are handed to the provider at once; a cancellation while REQUESTED is test/e2e/dashboard-payout-forms.spec.ts's",
    paths: (w) => [
      { path: `/dashboard/sellers/${w.b.seller1}/payouts/${w.b.payoutId}/cancel`, csrfFrom: '/dashboard/sellers' },
      // A's own seller, B's payout: no payout of that seller's.
      { path: `/dashboard/sellers/${w.a.seller1}/payouts/${w.b.payoutId}/cancel`, csrfFrom: '/dashboard/sellers' },
    ],
    others: (w) => [sellerFormField(`/dashboard/sellers/${w.a.seller1}/payouts/${w.b.payoutId}/cancel`, { accountId: w.b.seller1 })],
  },
  {
    route: 'POST /dashboard/sellers/:accountId/close',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/sellers/${w.a.closableAccountId}/close`, body: { reason: 'Left the marketplace', confirm: 'on' }, csrfFrom: '/dashboard/sellers', status: 303 }),
    paths: (w) => [{ path: `/dashboard/sellers/${w.b.seller1}/close`, body: { reason: 'Left the marketplace', confirm: 'on' }, csrfFrom: '/dashboard/sellers' }],
    others: (w) => [sellerFormField(`/dashboard/sellers/${w.a.closableAccountId}/close`, { reason: 'Left the marketplace', confirm: 'on', merchantId: w.b.merchantId })],
    unknownField: 'accountId',
  },
  {
    route: 'POST /dashboard/payouts/:payoutId/cancel',
    surface: 'dashboard',
    noControl: "A's payout is handed to the provider at once; a cancellation while REQUESTED is test/e2e/dashboard-payout-forms.spec.ts's",
    paths: (w) => [{ path: `/dashboard/payouts/${w.b.payoutId}/cancel`, csrfFrom: '/dashboard/payouts' }],
    others: (w) => [{ label: "undeclared field merchantId: platform B", attempt: { path: `/dashboard/payouts/${w.b.payoutId}/cancel`, body: { merchantId: w.b.merchantId }, csrfFrom: '/dashboard/payouts' }, refusal: { status: 400 } }],
  },
  {
    route: 'POST /dashboard/webhook-endpoints',
    surface: 'dashboard',
    control: () => ({ path: '/dashboard/webhook-endpoints', body: { url: 'https://a.example/dashboard-hooks', 'event:PAYOUT_PAID': 'on' }, csrfFrom: '/dashboard/webhook-endpoints', status: 200 }),
  },
  {
    route: 'POST /dashboard/webhook-endpoints/:endpointId/test',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/webhook-endpoints/${w.a.dashboardEndpointId}/test`, csrfFrom: '/dashboard/webhook-endpoints', status: 303 }),
    paths: (w) => [{ path: `/dashboard/webhook-endpoints/${w.b.endpointId}/test`, csrfFrom: '/dashboard/webhook-endpoints' }],
  },
  {
    route: 'POST /dashboard/webhook-endpoints/:endpointId/disabled',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/webhook-endpoints/${w.a.dashboardEndpointId}/disabled`, body: { disabled: 'yes' }, csrfFrom: '/dashboard/webhook-endpoints', status: 303 }),
    paths: (w) => [{ path: `/dashboard/webhook-endpoints/${w.b.endpointId}/disabled`, body: { disabled: 'yes' }, csrfFrom: '/dashboard/webhook-endpoints' }],
  },
  {
    route: 'POST /dashboard/webhook-endpoints/:endpointId/delete',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/webhook-endpoints/${w.a.dashboardEndpointToDeleteId}/delete`, csrfFrom: '/dashboard/webhook-endpoints', status: 303 }),
    paths: (w) => [{ path: `/dashboard/webhook-endpoints/${w.b.endpointId}/delete`, csrfFrom: '/dashboard/webhook-endpoints' }],
  },
  { route: 'POST /dashboard/webhooks/reveal', surface: 'dashboard', control: () => ({ path: '/dashboard/webhooks/reveal', csrfFrom: '/dashboard/webhooks', status: 200 }) },
  { route: 'POST /dashboard/webhooks/rotate', surface: 'dashboard', control: () => ({ path: '/dashboard/webhooks/rotate', csrfFrom: '/dashboard/webhooks', status: 200 }) },
  {
    route: 'POST /dashboard/webhooks/deliveries/:deliveryId/redeliver',
    surface: 'dashboard',
    control: (w) => ({ path: `/dashboard/webhooks/deliveries/${w.a.deliveryId}/redeliver`, csrfFrom: '/dashboard/webhooks', status: 303 }),
    paths: (w) => [{ path: `/dashboard/webhooks/deliveries/${w.b.deliveryId}/redeliver`, csrfFrom: '/dashboard/webhooks' }],
  },
  // The switch names a mode, never a tenant: another owner's tenant id in it is no mode (400), and the
  // control stays in A's test tenant, where every other dashboard control acts.
  {
    route: 'POST /dashboard/mode',
    surface: 'dashboard',
    control: () => ({ path: '/dashboard/mode', body: { mode: 'test', section: '/dashboard/orders' }, csrfFrom: '/dashboard/orders', status: 303 }),
    parties: [{ field: 'mode', naming: (_, party) => ({ path: '/dashboard/mode', body: { mode: party }, csrfFrom: '/dashboard/orders' }), refusal: { status: 400 } }],
  },
  // Last of all: A's key changes.
  { route: 'POST /dashboard/api-keys/rotate', surface: 'dashboard', control: () => ({ path: '/dashboard/api-keys/rotate', csrfFrom: '/dashboard/api-keys', status: 200 }) },

  ...reads('dashboard', [
    ['/dashboard/payouts/:payoutId', (w) => `/dashboard/payouts/${w.b.payoutId}`],
    ['/dashboard/payouts/:payoutId/report.csv', (w) => `/dashboard/payouts/${w.b.payoutId}/report.csv`],
    ['/dashboard/escrows/:escrowId', (w) => `/dashboard/escrows/${w.b.heldEscrowId}`],
    ['/dashboard/orders/:orderId', (w) => `/dashboard/orders/${w.b.paidOrderId}`],
    ['/dashboard/sellers/:accountId', (w) => `/dashboard/sellers/${w.b.seller1}`],
    ['/dashboard/sellers/:accountId/statement', (w) => `/dashboard/sellers/${w.b.seller1}/statement`],
    ['/dashboard/transfers/new', (w) => `/dashboard/transfers/new?direction=to&party=${w.b.seller1}&amount=1&description=Bonus`],
    ['/dashboard/webhook-endpoints/:endpointId/delete', (w) => `/dashboard/webhook-endpoints/${w.b.endpointId}/delete`],
  ]),

  // ---- the dashboard, A's seller-1 signed in: its own account only ------------------------------------
  {
    route: 'POST /dashboard/payouts/destination',
    surface: 'seller',
    control: () => ({ path: '/dashboard/payouts/destination', body: { ...destination, holderName: 'Seller One' }, csrfFrom: '/dashboard/payouts', status: 303 }),
  },
  {
    route: 'POST /dashboard/payouts',
    surface: 'seller',
    noControl: "seller-1's payouts wait for its review (an account pending verification)",
    others: (w) => [{ label: 'undeclared field merchantId: another seller of A', attempt: { path: '/dashboard/payouts', body: { merchantId: w.a.courier1 }, csrfFrom: '/dashboard/payouts' }, refusal: { status: 400 } }],
  },
  // The platform's forms, whichever party they name, do not exist for a seller.
  // A seller pauses, resumes, closes or cancels nothing of its own: the API gives an account no key of its own to do so.
  ...(
    [
      'transfers',
      'escrows/:escrowId/release',
      'escrows/:escrowId/refund',
      'escrows/:escrowId/reverse',
      'sellers/:accountId/invitation',
      'sellers/:accountId/payouts/pause',
      'sellers/:accountId/payouts/resume',
      'sellers/:accountId/payouts',
      'sellers/:accountId/payouts/:payoutId/cancel',
      'sellers/:accountId/close',
      'payouts/:payoutId/cancel',
      'webhook-endpoints',
      'webhooks/rotate',
      'api-keys/rotate',
      'payouts/settings',
      'mode',
    ] as const
  ).map(
    (form): IsolationEntry => ({
      route: `POST /dashboard/${form}`,
      surface: 'seller',
      noControl: 'the form is the platform owner’s; a seller’s session is refused whatever it names',
      paths: (w) => [
        {
          path: `/dashboard/${form.replace(':escrowId', w.a.heldEscrowId).replace(':accountId', w.a.courier1).replace(':payoutId', w.b.payoutId)}`,
          body: { merchantId: w.a.courier1, party: w.a.courier1, direction: 'from', amount: '1', description: 'Penalty', reason: 'x', email: 'thief@a.example', mode: 'live' },
          csrfFrom: '/dashboard/balance',
        },
      ],
    }),
  ),

  // ---- the hosted onboarding page, opened by A's link for seller-1: that account only -----------------
  // Before the details: their control ends on the return to the platform.
  {
    route: 'POST /onboarding/documents',
    surface: 'onboarding',
    noControl: "an upload carries a file (multipart), which this matrix's form client does not send: account-links-documents-browser.spec.ts uploads through the page, to the link's own account",
    others: (w) => [{ label: "undeclared field accountId: B's seller", attempt: { path: '/onboarding/documents', body: { documentKind: 'identity', accountId: w.b.seller1 }, csrfFrom: '/onboarding' }, refusal: { status: 400 } }],
  },
  {
    route: 'POST /onboarding',
    surface: 'onboarding',
    // The same details and destination seller-1 has: the control changes nothing the other controls rely on.
    control: () => ({ path: '/onboarding', body: { name: 'Seller One', ...destination, holderName: 'Seller One' }, csrfFrom: '/onboarding', status: 303 }),
    others: (w) => [{ label: "undeclared field accountId: B's seller", attempt: { path: '/onboarding', body: { name: 'Seller One', accountId: w.b.seller1 }, csrfFrom: '/onboarding' }, refusal: { status: 400 } }],
  },
];

/** GET routes naming B's resources in the path: each entry keyed by its route, with the path. */
function reads(surface: Surface, routes: Array<[string, (w: World) => string]>): IsolationEntry[] {
  return routes.map(([route, path]) => ({
    route: `GET ${route}`,
    surface,
    noControl: "a read: the authorization matrix reads the owner's own",
    paths: (w: World) => [{ method: 'GET' as const, path: path(w) }],
  }));
}

/** A seller page's form sent with a field it does not read, naming another tenant's party: 400, nothing written. */
function sellerFormField(path: string, body: Record<string, string>): { label: string; attempt: Attempt; refusal: Refusal } {
  const field = Object.keys(body).find((name) => name === 'accountId' || name === 'merchantId')!;
  return { label: `undeclared field ${field}: ${body[field]}`, attempt: { path, body, csrfFrom: '/dashboard/sellers' }, refusal: { status: 400 } };
}

function dashboardEscrowField(form: string, escrow: (w: World) => string, rest: Record<string, string>): PartyField {
  return {
    field: 'merchantId',
    naming: (w, party) => ({ path: `/dashboard/escrows/${escrow(w)}/${form}`, body: { ...rest, merchantId: party }, csrfFrom: '/dashboard/orders' }),
    refusal: NO_SUCH_ALLOCATION_PAGE,
  };
}

/** The parties of other tenants a probe names. */
export function foreignParties(w: World): Array<{ name: string; id: string }> {
  return [
    { name: "B's seller", id: w.b.seller1 },
    { name: 'platform B', id: w.b.merchantId },
    { name: 'plain merchant C', id: w.c.merchantId },
    // What a party of no one's gets: the others must get the same, so the answer tells nothing.
    { name: 'an unknown id', id: 'acct_00000000000000000000000000000000' },
  ];
}

// ---- seeding --------------------------------------------------------------------------------------

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/callbacks`;
}

export async function seedWorld(running: RunningApp): Promise<World> {
  const { baseUrl } = running;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end());
  });
  const callbackURL = await listen(receiver);
  const as = (m: Party) => ({ 'x-api-secret': m.apiSecret });
  const post = async (m: Party, path: string, body: unknown, expected: number) => {
    const res = await call(baseUrl, 'POST', path, { body, headers: as(m) });
    if (res.status !== expected) throw new Error(`seeding ${path} failed: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const escrowOf = (m: Party & { seller1: string; courier1: string }) =>
    escrowRequest({ callbackURL, allocations: [{ merchantId: m.seller1, amount: 600.5 }, { merchantId: m.courier1, amount: 400 }] });
  const paid = async (m: Party, id: string, kind: 'order' | 'escrow') => {
    await post(m, `/v1/sandbox/orders/${id}/complete`, { outcome: 'PAID' }, 200);
    await waitFor(async () => {
      const view = (await call(baseUrl, 'GET', kind === 'order' ? `/v1/trdp/order/${id}` : `/v1/trdp/escrow/${id}`, { headers: as(m) })).body?.data;
      return (view?.status === 'PAID' || view?.status === 'HELD') && view;
    }, `${kind} ${id} to be paid`);
  };

  async function tenant(name: string): Promise<Tenant & { owner: ConsoleClient }> {
    const signedIn = await signedInMerchant(baseUrl, name, PASSWORD);
    const m = await withSellers(baseUrl, { merchantId: signedIn.merchantId, apiSecret: signedIn.apiSecret });
    const paidOrderId = (await post(m, '/v1/trdp/order', orderRequest({ callbackURL }), 201)).order_id;
    const pendingOrderId = (await post(m, '/v1/trdp/order', orderRequest({ callbackURL }), 201)).order_id;
    const heldEscrowId = (await post(m, '/v1/trdp/escrow/order', escrowOf(m), 201)).escrowId;
    const releasedEscrowId = (await post(m, '/v1/trdp/escrow/order', escrowOf(m), 201)).escrowId;
    const disputedEscrowId = (await post(m, '/v1/trdp/escrow/order', escrowOf(m), 201)).escrowId;
    const pendingEscrowId = (await post(m, '/v1/trdp/escrow/order', escrowOf(m), 201)).escrowId;
    for (const id of [heldEscrowId, releasedEscrowId, disputedEscrowId]) await paid(m, id, 'escrow');
    await paid(m, paidOrderId, 'order');
    await post(m, `/v1/trdp/escrow/${releasedEscrowId}/release`, { merchantId: m.seller1 }, 200);
    await post(m, `/v1/trdp/escrow/${disputedEscrowId}/dispute`, { merchantId: m.courier1, reason: 'not delivered' }, 200);
    const transferId = (await post(m, '/v1/trdp/transfers', { to: m.seller1, amount: 5, description: 'bonus' }, 201)).transferId;
    const endpointId = (await post(m, '/v1/trdp/webhook-endpoints', { url: callbackURL, events: ['PAYOUT_PAID'] }, 201)).endpointId;
    const testClockId = (await post(m, '/v1/trdp/test-clocks', { frozenTime: '2030-01-01T00:00:00Z' }, 201)).testClockId;
    const delivery = await waitFor(async () => {
      const list = (await call(baseUrl, 'GET', `/v1/trdp/callbacks?orderId=${paidOrderId}`, { headers: as(m) })).body?.data;
      return list?.[0]?.status === 'DELIVERED' && list[0];
    }, `${name}'s paid order's callback to be delivered`);
    return { ...m, owner: signedIn.browser, paidOrderId, pendingOrderId, deliveryId: delivery.deliveryId, heldEscrowId, releasedEscrowId, disputedEscrowId, pendingEscrowId, transferId, endpointId, testClockId };
  }

  const a = await tenant('Platform A');
  const b = await tenant('Platform B');
  // B pays out what its order earned: a payout of B's to address.
  await post(b, '/v1/trdp/payout-destination', { ...destination, holderName: 'Platform B' }, 200);
  const payoutId = (await post(b, '/v1/trdp/payouts', {}, 201)).payoutId;
  // B's seller's identity document: A must not list nor download it.
  const form = new FormData();
  for (const [name, value] of Object.entries(document())) form.append(name, value);
  const uploaded = await fetch(`${baseUrl}/v1/trdp/accounts/${b.seller1}/documents`, { method: 'POST', headers: as(b), body: form });
  if (uploaded.status !== 201) throw new Error(`seeding B's document failed: ${uploaded.status} ${await uploaded.text()}`);
  const documentId = ((await uploaded.json()) as { data: { documentId: string } }).data.documentId;

  const c = await registerMerchant(baseUrl, 'Plain Merchant C');
  const cOrder = (await post(c, '/v1/trdp/order', orderRequest({ callbackURL }), 201)).order_id;
  await paid(c, cOrder, 'order');
  const linked = await registerMerchant(baseUrl, 'Linked Merchant L');
  await linkToPlatform(baseUrl, linked, a);

  const secondPendingEscrowId = (await post(a, '/v1/trdp/escrow/order', escrowOf(a), 201)).escrowId;
  const dashboardDisputeEscrowId = (await post(a, '/v1/trdp/escrow/order', escrowOf(a), 201)).escrowId;
  await paid(a, dashboardDisputeEscrowId, 'escrow');
  const endpoint = async () => (await post(a, '/v1/trdp/webhook-endpoints', { url: callbackURL, events: ['PAYOUT_PAID'] }, 201)).endpointId as string;
  const [endpointToDeleteId, dashboardEndpointId, dashboardEndpointToDeleteId] = [await endpoint(), await endpoint(), await endpoint()];
  const testClockToDeleteId = (await post(a, '/v1/trdp/test-clocks', { frozenTime: '2030-01-01T00:00:00Z' }, 201)).testClockId as string;
  const closableAccountId = (await post(a, '/v1/trdp/accounts', { name: 'Closable Seller', type: 'individual' }, 201)).accountId as string;
  // A's seller-1, signed in through the invitation A issued it.
  const invitation = await post(a, `/v1/trdp/accounts/${a.seller1}/invitation`, { email: `seller-${Date.now()}@a.example` }, 201);
  const seller = new ConsoleClient(baseUrl);
  const accepted = await seller.post('/dashboard/invitation', { token: invitationToken(invitation.invitationUrl), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
  if (accepted.status !== 303) throw new Error(`seeding: the seller's invitation was not accepted: ${accepted.status} ${accepted.text.slice(0, 200)}`);
  // seller-1 on the hosted page, through the account link A made for it.
  const link = await post(a, '/v1/trdp/account-links', { accountId: a.seller1, ...linkUrls }, 201);
  const onboarding = new ConsoleClient(baseUrl);
  const opened = await onboarding.get(new URL(link.url).pathname);
  if (opened.status !== 303) throw new Error(`seeding: the account link did not open: ${opened.status} ${opened.text.slice(0, 200)}`);

  return {
    a: { ...a, seller, onboarding, secondPendingEscrowId, dashboardDisputeEscrowId, endpointToDeleteId, dashboardEndpointId, dashboardEndpointToDeleteId, testClockToDeleteId, closableAccountId },
    b: { ...b, payoutId, documentId },
    c: { ...c, paidOrderId: cOrder },
    linked,
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}

/** The balances a probe must leave alone: B's, B's sellers', C's and L's, each read with its owner's key. */
export async function foreignBalances(baseUrl: string, w: World): Promise<Record<string, unknown>> {
  const read = async (m: Party, account?: string) => {
    const res = await call(baseUrl, 'GET', '/v1/trdp/balance', { headers: { 'x-api-secret': m.apiSecret, ...(account ? { 'x-account-id': account } : {}) } });
    if (res.status !== 200) throw new Error(`reading a balance failed: ${res.status} ${res.text}`);
    const { asOf, ...money } = res.body.data;
    return money;
  };
  return {
    b: await read(w.b),
    bSeller: await read(w.b, w.b.seller1),
    bCourier: await read(w.b, w.b.courier1),
    c: await read(w.c),
    linked: await read(w.linked),
  };
}
