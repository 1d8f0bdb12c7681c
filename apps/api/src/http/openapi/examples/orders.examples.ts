import type { OperationExamples } from '@app/http';

/**
 * Plain orders, their payment (verify, the sandbox, the provider’s notifications) and refunds: one
 * order paid and partly refunded, one just created and one whose payment failed.
 */

const PAID_ID = 'ord_bc5734b64d13440bdca208797f197109';
const PENDING_ID = 'ord_20a2b344db2930cd01d51959d27e8ec7';
const FAILED_ID = 'ord_aaf2fe9b3c5c301a8e01158360227cec';

const ITEMS = [{ productId: 'sku-9', item_name: 'Injera basket', quantity: 1, unit_price: 250.75 }];

/** The order view (GET /v1/trdp/order/{orderId}) of the paid order. */
const PAID = {
  order_id: PAID_ID,
  status: 'PAID',
  amount: 250.75,
  currency: 'ETB',
  payment_url: `http://localhost:3000/checkout/${PAID_ID}`,
  expires_at: '2026-11-28T05:47:19.380Z',
  callback_url: 'https://marketplace.example/callbacks',
  redirect_url: null,
  testClockId: null,
  metadata: { ref: 'r-77' },
  description: 'Order 77',
  customer_id: 'cus_df91087a4dbbcaf29df8853e',
  customer_name: 'Almaz Tesfaye',
  customer_phone_number: '+251911234567',
  items: ITEMS,
  external_reference_id: 'SBX-B2EFA81E9DF2E0E7',
  refunded_amount: 0,
  fee: 0,
  net: 250.75,
  created_at: '2026-11-28T05:17:19.380Z',
  updated_at: '2026-11-28T05:17:19.545Z',
};

/** An order not paid yet has no payment reference. */
const { external_reference_id: _, ...unpaid } = PAID;
const PENDING = {
  ...unpaid,
  order_id: PENDING_ID,
  status: 'PENDING',
  payment_url: `http://localhost:3000/checkout/${PENDING_ID}`,
  expires_at: '2026-11-28T05:47:20.183Z',
  callback_url: 'https://merchant.example/callbacks',
  created_at: '2026-11-28T05:17:20.183Z',
  updated_at: '2026-11-28T05:17:20.184Z',
};

export const ORDER_EXAMPLES: OperationExamples = {
  'POST /v1/trdp/order': {
    request: {
      amount: 250.75,
      description: 'Order 77',
      currency: 'ETB',
      customerName: 'Almaz Tesfaye',
      customerPhoneNumber: '+251 911 234 567',
      items: ITEMS,
      callbackURL: 'https://merchant.example/callbacks',
      metadata: { ref: 'r-77' },
    },
    data: {
      order_id: PENDING.order_id,
      status: PENDING.status,
      amount: PENDING.amount,
      currency: PENDING.currency,
      payment_url: PENDING.payment_url,
      expires_at: PENDING.expires_at,
      callback_url: PENDING.callback_url,
      redirect_url: null,
      testClockId: null,
      metadata: { merchant_id: 'mer_2ef868dd3eaa4866d7a19e7d', customer_id: PENDING.customer_id, description: 'Order 77' },
    },
  },
  'GET /v1/trdp/order/{orderId}': { data: PAID },
  'GET /v1/trdp/orders': {
    data: { orders: [PENDING, { ...PAID, refunded_amount: 0.01, updated_at: '2026-11-28T05:17:20.354Z' }], hasMore: false },
  },
  'POST /v1/trdp/order/{orderId}/refund': {
    request: { amount: 0.01, reason: 'damaged' },
    data: { ...PAID, refunded_amount: 0.01, updated_at: '2026-11-28T05:17:20.313Z' },
  },
  'POST /v1/trdp/verify': {
    request: { orderId: PAID_ID },
    data: {
      order_id: PAID_ID,
      status: 'PAID',
      amount: 250.75,
      currency: 'ETB',
      external_reference_id: PAID.external_reference_id,
      updated_at: '2026-11-28T05:17:20.354Z',
    },
  },
  'POST /v1/providers/{provider}/notifications': {
    request: { id: 'ntf_5c1d', type: 'payment.failed', orderId: FAILED_ID, attemptId: 'att_01JD2', reason: 'DECLINED', occurredAt: '2026-11-26T09:30:00.000Z' },
    data: { orderId: FAILED_ID, status: 'FAILED' },
  },
  'POST /v1/sandbox/orders/{id}/complete': {
    request: { outcome: 'FAILED' },
    data: { order_id: FAILED_ID, status: 'FAILED', amount: 250.75, currency: 'ETB', updated_at: '2026-11-28T05:17:21.389Z' },
  },
};
