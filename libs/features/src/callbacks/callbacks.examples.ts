import type { OperationExamples } from '@app/http';

/**
 * Callback deliveries, the webhook secret and the events API. The callbacks are an order’s payment and
 * refund and an escrow’s payment.
 */

const MERCHANT = 'mer_2ef868dd3eaa4866d7a19e7d';
const ORDER_ID = 'ord_bc5734b64d13440bdca208797f197109';
const PAID_DELIVERY_ID = 'dlv_9e3286847c395ffe66c500f6f4817a85';

/** What a callback tells of the order’s payment, as a delivery carries it and the events API shows it. */
const ORDER_PAID = {
  billRefNo: ORDER_ID,
  status: 'PAID',
  timestamp: '2026-11-28T05:17:19.545Z',
  message: 'Payment received',
  merchantId: MERCHANT,
  customerId: 'cus_df91087a4dbbcaf29df8853e',
  externalReferenceId: 'SBX-B2EFA81E9DF2E0E7',
  amount: 250.75,
  payment_type: 'USSD_PUSH',
  receipt_url: `http://localhost:3000/receipts/${ORDER_ID}`,
  orderId: ORDER_ID,
  metadata: { ref: 'r-77' },
  deliveryId: PAID_DELIVERY_ID,
  livemode: false,
};

const ORDER_PAID_EVENT = { id: 'evt_9e3286847c395ffe66c500f6f4817a85', type: 'PAID', createdAt: ORDER_PAID.timestamp, payload: ORDER_PAID };

const WEBHOOK_SECRET = { merchantId: MERCHANT, webhookSecret: 'whsec_-RLlGA_5EwMS5dDJZcpSEnyFXlPyF0Fho9cAUtV2Z8w' };

export const CALLBACK_EXAMPLES: OperationExamples = {
  'GET /v1/trdp/callbacks': {
    data: [
      {
        deliveryId: PAID_DELIVERY_ID,
        orderId: ORDER_ID,
        event: 'OrderPaid',
        status: 'DELIVERED',
        nextAttemptAt: null,
        url: 'https://marketplace.example/callbacks',
        payload: ORDER_PAID,
        attempts: [{ attempt: 1, at: '2026-11-28T05:17:19.638Z', statusCode: 200, latencyMs: 26, error: null, response: null, delivered: true }],
        createdAt: '2026-11-28T05:17:19.615Z',
        updatedAt: '2026-11-28T05:17:19.666Z',
      },
      {
        deliveryId: 'dlv_9ee02fc62db15551cb74f13398421291',
        orderId: ORDER_ID,
        event: 'OrderRefundCompleted',
        status: 'DELIVERED',
        nextAttemptAt: null,
        url: 'https://marketplace.example/callbacks',
        payload: {
          billRefNo: ORDER_ID,
          status: 'REFUNDED',
          timestamp: '2026-11-28T05:17:20.354Z',
          message: 'Refunded to the customer: damaged',
          merchantId: MERCHANT,
          externalReferenceId: 'SBX-R-A453B546E7779767',
          amount: 0.01,
          refundId: `${ORDER_ID}-refund-1`,
          orderId: ORDER_ID,
          metadata: { ref: 'r-77' },
          deliveryId: 'dlv_9ee02fc62db15551cb74f13398421291',
          livemode: false,
        },
        attempts: [{ attempt: 1, at: '2026-11-28T05:17:20.389Z', statusCode: 200, latencyMs: 4, error: null, response: null, delivered: true }],
        createdAt: '2026-11-28T05:17:20.386Z',
        updatedAt: '2026-11-28T05:17:20.393Z',
      },
    ],
  },
  'POST /v1/trdp/callbacks/{deliveryId}/redeliver': { data: { deliveryId: PAID_DELIVERY_ID, status: 'PENDING' } },
  'GET /v1/trdp/webhook-secret': { data: WEBHOOK_SECRET },
  'POST /v1/trdp/webhook-secret/rotate': { data: WEBHOOK_SECRET },
  'GET /v1/trdp/events': {
    data: {
      events: [
        ORDER_PAID_EVENT,
        {
          id: 'evt_dabb53519832d9adf4b9d7e42f5e6f3a',
          type: 'PAID',
          createdAt: '2026-11-28T05:17:19.603Z',
          payload: {
            billRefNo: 'order-1003',
            status: 'PAID',
            timestamp: '2026-11-28T05:17:19.603Z',
            message: 'Payment received; the funds are held in escrow',
            merchantId: MERCHANT,
            customerId: ORDER_PAID.customerId,
            externalReferenceId: 'SBX-9A49D57AF02C9CA4',
            amount: 1000.5,
            payment_type: 'USSD_PUSH',
            receipt_url: 'http://localhost:3000/receipts/esc_b0003be19d22795076f43dbdabb1411a',
            orderId: 'order-1003',
            escrowId: 'esc_b0003be19d22795076f43dbdabb1411a',
            escrow_status: 'HELD',
            metadata: { cartId: 'c-1' },
            deliveryId: 'dlv_dabb53519832d9adf4b9d7e42f5e6f3a',
            livemode: false,
          },
        },
      ],
      hasMore: false,
    },
  },
  'GET /v1/trdp/events/{eventId}': { data: ORDER_PAID_EVENT },
};
