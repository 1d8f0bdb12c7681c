import type { SqlClient } from '@app/database';
import { TEST_ADMIN_KEY } from './app';
import { call } from './http';

export interface TestMerchant {
  merchantId: string;
  apiSecret: string;
  webhookSecret: string;
}

/**
 * A registered merchant's tenant in `mode` (docs/concepts/modes.md): test by default, whose money the
 * sandbox moves on every deployment; live where the test is of the live provider (PAYMENT_PROVIDER=chapa).
 */
export async function registerMerchant(baseUrl: string, name = 'Test Marketplace', mode: 'test' | 'live' = 'test'): Promise<TestMerchant> {
  const res = await call(baseUrl, 'POST', '/v1/admin/merchants', { body: { name }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
  if (res.status !== 201) throw new Error(`registering a merchant failed: ${res.status} ${res.text}`);
  const { merchantId, apiSecret, webhookSecret } = mode === 'live' ? res.body.data.live : res.body.data;
  return { merchantId, apiSecret, webhookSecret };
}

/**
 * A registered merchant's link to a platform, made with the merchant's own key (POST /v1/trdp/platform-links):
 * the platform may then debit and credit it (transfers, its escrows' allocations; docs/concepts/authority.md).
 */
export async function linkToPlatform(baseUrl: string, merchant: Pick<TestMerchant, 'apiSecret'>, platform: Pick<TestMerchant, 'merchantId'>): Promise<void> {
  const res = await call(baseUrl, 'POST', '/v1/trdp/platform-links', { body: { platformId: platform.merchantId }, headers: { 'x-api-secret': merchant.apiSecret } });
  if (res.status !== 201) throw new Error(`linking a merchant to its platform failed: ${res.status} ${res.text}`);
}

/**
 * A merchant with its sellers onboarded as its accounts (POST /v1/trdp/accounts), under the references
 * escrowRequest's allocations name, so its escrows allocate to someone who can be paid. An escrow
 * stores an account named by its reference as the accountId: releases, refunds, the ledger and the
 * callbacks name `seller1` and `courier1`.
 */
export interface TestMarketplace extends TestMerchant {
  /** The accountId of the account with the reference `seller-1`. */
  seller1: string;
  /** The accountId of the account with the reference `courier-1`. */
  courier1: string;
}

/** One of the merchant's accounts, under `reference` (the same again answers the same account); its accountId. */
export async function createAccount(baseUrl: string, merchant: { apiSecret: string }, reference: string, name = `Seller ${reference}`): Promise<string> {
  const res = await call(baseUrl, 'POST', '/v1/trdp/accounts', { body: { name, type: 'individual', reference }, headers: { 'x-api-secret': merchant.apiSecret } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`creating account ${reference} failed: ${res.status} ${res.text}`);
  return res.body.data.accountId;
}

/** The merchant, however it was registered, with its accounts `seller-1` and `courier-1`. */
export async function withSellers<M extends { apiSecret: string }>(baseUrl: string, merchant: M): Promise<M & Pick<TestMarketplace, 'seller1' | 'courier1'>> {
  const [seller1, courier1] = await Promise.all([createAccount(baseUrl, merchant, 'seller-1', 'Seller One'), createAccount(baseUrl, merchant, 'courier-1', 'Courier')]);
  return { ...merchant, seller1, courier1 };
}

export async function registerMarketplace(baseUrl: string, name = 'Test Marketplace', mode: 'test' | 'live' = 'test'): Promise<TestMarketplace> {
  return withSellers(baseUrl, await registerMerchant(baseUrl, name, mode));
}

let sequence = 0;

/** An escrow of 1,000.50 ETB split between a TestMarketplace's seller-1 and courier-1 (named by their references). */

export function escrowRequest(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    orderId: `ORDER-${Date.now()}-${sequence}`,
    amount: 1000.5,
    currency: 'ETB',
    customerName: 'Abebe Kebede',
    customerPhoneNumber: '0911234567',
    customerEmail: 'abebe@example.com',
    description: 'Marketplace order',
    items: [
      { productId: 'sku-1', item_name: 'Coffee 1kg', quantity: 2, unit_price: 300.25, stock_unit: 'kg' },
      { productId: 'sku-2', item_name: 'Delivery', quantity: 1, unit_price: 400 },
    ],
    allocations: [
      { merchantId: 'seller-1', amount: 600.5, metadata: { merchantName: 'Seller One', purpose: 'goods' } },
      { merchantId: 'courier-1', amount: 400, metadata: { merchantName: 'Courier', purpose: 'delivery' } },
    ],
    callbackURL: 'https://merchant.example/callbacks',
    redirectUrl: 'https://merchant.example/thanks',
    metadata: { cartId: 'c-1' },
    ...overrides,
  };
}

export function orderRequest(overrides: Record<string, unknown> = {}) {
  return {
    amount: 250.75,
    description: 'Order 77',
    currency: 'ETB',
    customerName: 'Almaz Tesfaye',
    customerPhoneNumber: '+251 911 234 567',
    items: [{ productId: 'sku-9', item_name: 'Injera basket', quantity: 1, unit_price: 250.75 }],
    callbackURL: 'https://merchant.example/callbacks',
    metadata: { ref: 'r-77' },
    ...overrides,
  };
}

export interface WriteCounts {
  events: number;
  orders: number;
  escrows: number;
}

/**
 * Everything a request could have written: used to prove a refused request wrote nothing.
 * `exceptCallbacks`: leave out callback deliveries, which the worker appends in the background for
 * what earlier requests did (a refused request that wrote anything would show in its own stream).
 */
export async function countWrites(db: SqlClient, options: { exceptCallbacks?: boolean } = {}): Promise<WriteCounts> {
  const [row] = await db.query<{ events: number; orders: number; escrows: number }>(
    `SELECT (SELECT count(*)::int FROM events WHERE NOT ($1 AND stream_id LIKE 'callback-%')) AS events,
            (SELECT count(*)::int FROM payables_view WHERE kind = 'order') AS orders,
            (SELECT count(*)::int FROM payables_view WHERE kind = 'escrow') AS escrows`,
    [options.exceptCallbacks === true],
  );
  return row;
}
