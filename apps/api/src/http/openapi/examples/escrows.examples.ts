import type { OperationExamples } from '@app/http';

/**
 * Escrow orders and what is done with their allocations. One escrow runs through them: a checkout of
 * 1,500 ETB split between a seller (1,000) and a courier (500), both accounts of the platform, which
 * earns a 10% fee on each share. The courier is named by its reference when the escrow is created.
 */

const ESCROW_ID = 'esc_1dfa99204967ded551b6fb73ce619753';
const SELLER = 'acct_15ce3527c5b25b8263d4fa61b75c76a8';
const COURIER = 'acct_7d1e0c2b9a4f4e6b8c3d2a1f0e9d8c7b';
const COURIER_REFERENCE = 'habesha-delivery';
const CREATED_AT = '2026-11-26T09:30:00.000Z';

const ITEMS = [
  { productId: 'sku-1', item_name: 'Coffee beans 1kg', quantity: 2, unit_price: 500, stock_unit: 'kg' },
  { productId: 'delivery', item_name: 'Delivery', quantity: 1, unit_price: 500 },
];

const CREATE_REQUEST = {
  orderId: 'order-1001',
  amount: 1500,
  currency: 'ETB',
  customerName: 'Abebe Kebede',
  customerPhoneNumber: '0911234567',
  customerEmail: 'abebe@example.com',
  description: 'Coffee with delivery',
  items: ITEMS,
  allocations: [
    { merchantId: SELLER, amount: 1000, metadata: { merchantName: 'Abebe Coffee', purpose: 'goods' } },
    { merchantId: COURIER_REFERENCE, amount: 500, fee: 50, metadata: { merchantName: 'Habesha Delivery', purpose: 'delivery' } },
  ],
  callbackURL: 'https://marketplace.example/callbacks',
  redirectUrl: 'https://marketplace.example/thanks',
  metadata: { cartId: 'cart-1001' },
};

/** Whom each of the request's allocations is kept under. */
const ACCOUNT_OF: Record<string, string> = { [SELLER]: SELLER, [COURIER_REFERENCE]: COURIER };

/** The seller's allocation names no fee: the platform's default commission (10 %, at least 5 ETB) computed it; the courier's names its own. */
const COMMISSION_OF: Record<string, unknown> = { [SELLER]: { source: 'platform', version: 1, percentage: 10, flat: null, minimum: 5, maximum: null }, [COURIER]: null };
const FEE_OF: Record<string, number> = { [SELLER]: 100, [COURIER]: 50 };

/** An allocation as the escrow view shows it: nothing moved yet, unless the money says otherwise. */
function allocation(merchantId: string, amount: number, fee: number, money: Record<string, unknown> = {}) {
  const metadata = CREATE_REQUEST.allocations.find((created) => ACCOUNT_OF[created.merchantId] === merchantId)?.metadata;
  return { merchantId, accountId: merchantId, amount, fee, commission: COMMISSION_OF[merchantId], metadata, status: 'HELD', held: amount, released: 0, refunded: 0, feeEarned: 0, frozen: 0, reversed: 0, feeReturned: 0, ...money };
}

/** What creating the escrow answers: it waits for its payment, with its allocations as they were asked for and whom each is kept under. */
const CREATED = {
  escrowId: ESCROW_ID,
  orderId: 'order-1001',
  amount: 1500,
  currency: 'ETB',
  status: 'PENDING',
  paymentUrl: `https://ledger.example/checkout/${ESCROW_ID}`,
  allocations: CREATE_REQUEST.allocations.map(({ fee: _, merchantId, amount, metadata }) => ({
    merchantId,
    accountId: ACCOUNT_OF[merchantId],
    amount,
    fee: FEE_OF[ACCOUNT_OF[merchantId]],
    commission: COMMISSION_OF[ACCOUNT_OF[merchantId]],
    metadata,
  })),
  expiredAt: '2026-11-26T10:00:00.000Z',
  callbackURL: 'https://marketplace.example/callbacks',
  redirectUrl: 'https://marketplace.example/thanks',
  testClockId: null,
};

/** The escrow view (GET /v1/trdp/escrow/{escrowId}) once paid, with the given status and allocations. */
function escrow(status: string, allocations: unknown[], changes: Record<string, unknown> = {}) {
  return {
    ...CREATED,
    status,
    allocations,
    paymentStatus: 'PAID',
    autoReleaseAt: null,
    description: 'Coffee with delivery',
    customerId: 'cus_df91087a4dbbcaf29df8853e',
    customerName: 'Abebe Kebede',
    customerPhoneNumber: '+251911234567',
    customerEmail: 'abebe@example.com',
    items: ITEMS,
    externalReferenceId: 'SBX-9A49D57AF02C9CA4',
    metadata: { cartId: 'cart-1001' },
    createdAt: CREATED_AT,
    updatedAt: '2026-11-26T09:42:00.000Z',
    ...changes,
  };
}

/** An escrow cancelled before it was paid has no payment reference. */
function unpaid({ externalReferenceId: _, ...view }: ReturnType<typeof escrow>) {
  return view;
}

const HELD = escrow('HELD', [allocation(SELLER, 1000, 100), allocation(COURIER, 500, 50)]);
const SELLER_RELEASED = allocation(SELLER, 1000, 100, { status: 'RELEASED', held: 0, released: 1000, feeEarned: 100 });

export const ESCROW_EXAMPLES: OperationExamples = {
  'POST /v1/trdp/escrow/order': { request: CREATE_REQUEST, data: CREATED },
  'GET /v1/trdp/escrow/{escrowId}': { data: HELD },
  'GET /v1/trdp/escrows': { data: { escrows: [HELD], hasMore: false } },
  'POST /v1/trdp/escrow/{escrowId}/release': {
    request: { merchantId: SELLER },
    data: escrow('PARTIALLY_RELEASED', [SELLER_RELEASED, allocation(COURIER, 500, 50)]),
  },
  'GET /v1/trdp/escrow/{escrowId}/releases': {
    data: {
      escrowId: ESCROW_ID,
      orderId: 'order-1001',
      releases: [{ merchantId: SELLER, amount: 1000, fee: 100, net: 900, releasedAt: '2026-11-26T09:42:00.000Z', automatic: false }],
    },
  },
  'POST /v1/trdp/escrow/{escrowId}/refund': {
    request: { merchantId: COURIER, reason: 'The courier could not deliver' },
    data: escrow('PARTIALLY_RELEASED', [SELLER_RELEASED, allocation(COURIER, 500, 50, { status: 'REFUND_PENDING', held: 0, refunded: 500 })]),
  },
  'POST /v1/trdp/escrow/{escrowId}/cancel': {
    request: {},
    data: unpaid(escrow('CANCELLED', [allocation(SELLER, 1000, 100, { status: 'VOID', held: 0 }), allocation(COURIER, 500, 50, { status: 'VOID', held: 0 })], { paymentStatus: 'CANCELLED' })),
  },
  'POST /v1/trdp/escrow/{escrowId}/auto-release': {
    request: { autoReleaseAt: '2026-12-03T09:30:00.000Z' },
    data: { ...HELD, autoReleaseAt: '2026-12-03T09:30:00.000Z' },
  },
  'POST /v1/trdp/escrow/{escrowId}/dispute': {
    request: { merchantId: COURIER, reason: 'The buyer says the parcel never arrived' },
    data: escrow('DISPUTED', [
      allocation(SELLER, 1000, 100),
      allocation(COURIER, 500, 50, { status: 'DISPUTED', held: 0, frozen: 500, dispute: { reason: 'The buyer says the parcel never arrived', openedAt: '2026-11-26T09:45:00.000Z' } }),
    ]),
  },
  'POST /v1/trdp/escrow/{escrowId}/dispute/resolve': {
    request: { merchantId: COURIER, release: 300, refund: 200 },
    data: escrow('HELD', [allocation(SELLER, 1000, 100), allocation(COURIER, 500, 50, { status: 'REFUND_PENDING', held: 0, released: 300, refunded: 200, feeEarned: 30 })]),
  },
  'POST /v1/trdp/escrow/{escrowId}/reversals': {
    request: { merchantId: SELLER, amount: 500, reason: 'The customer returned one bag', refundFee: true },
    data: {
      refundId: `${ESCROW_ID}-refund-1`,
      escrowId: ESCROW_ID,
      orderId: 'order-1001',
      merchantId: SELLER,
      amount: 500,
      feeReturned: 50,
      merchantDebited: 450,
      reason: 'The customer returned one bag',
      status: 'PENDING',
      requestedAt: '2026-11-27T14:00:00.000Z',
    },
  },
};
