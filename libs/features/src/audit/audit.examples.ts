import type { OperationExamples } from '@app/http';

/** The audit API (auditor or admin key). */

const ADMIN = { id: 'admin', type: 'admin' };
const MERCHANT = { id: 'mer_2ef868dd3eaa4866d7a19e7d', type: 'merchant' };
const SANDBOX = { id: 'sandbox', type: 'provider' };

/** A stored event’s metadata: who acted, and what started it (a request, a provider’s notification), which also correlates it. */
function sentBy(actor: { id: string; type: string }, cause: string) {
  return { actor, causationId: cause, correlationId: cause };
}

const LEDGER_ACCOUNTS = [
  { account: 'test:customer:refunds', debit: 1.01, credit: 1.01, balance: 0 },
  { account: 'escrow:esc_b0003be19d22795076f43dbdabb1411a', debit: 601.5, credit: 1000.5, balance: 399 },
];

export const AUDIT_EXAMPLES: OperationExamples = {
  'GET /v1/audit/events': {
    data: {
      events: [
        {
          position: '997-1',
          id: '49390476-6857-4903-9ca8-01d66bd12e28',
          streamId: 'merchant-mer_2ef868dd3eaa4866d7a19e7d',
          revision: '0',
          type: 'MerchantRegistered',
          data: { name: 'Merkato Online', merchantId: 'mer_2ef868dd3eaa4866d7a19e7d', registeredAt: '2026-11-28T05:17:19.130Z' },
          metadata: sentBy(ADMIN, '7290491f-c3b4-448e-a487-cb2e388c24f4'),
          recordedAt: '2026-11-28T05:17:19.139Z',
          hash: 'b716e80924dad30dfa0eec0ab98d1f657cfb8a093656986179889793de613d27',
        },
        {
          position: '1001-2',
          id: 'fae5609c-7d42-4865-804c-865beb046869',
          streamId: 'merchant-mer_01786931b08c21d98a720569',
          revision: '0',
          type: 'MerchantRegistered',
          data: { name: 'Habesha Delivery', merchantId: 'mer_01786931b08c21d98a720569', registeredAt: '2026-11-28T05:17:19.220Z' },
          metadata: sentBy(ADMIN, 'd57ff7ea-2605-4ee0-8346-f0810cf16b7e'),
          recordedAt: '2026-11-28T05:17:19.223Z',
          hash: '3f8aca1c72709f241e0da73f103b5b04a8b2a2039622618da268cd8a0e407d38',
        },
      ],
      next: '1011-5',
    },
  },
  'GET /v1/audit/events.csv': {
    response: 'position,event_id,stream_id,revision,type,recorded_at,data,metadata,hash\r\n997-1,49390476-6857-4903-9ca8-01d66bd12e28,merchant-mer_2ef868dd3eaa4866d7a19e7d,0,MerchantRegistered,2026-11-28T05:17:19.139Z,"{""name"":""Merkato Online"",""merchantId"":""mer_2ef868dd3eaa4866d7a19e7d"",""registeredAt"":""2026-11-28T05:17:19.130Z""}","{""actor"":{""id"":""admin"",""type"":""admin""},""causationId"":""7290491f-c3b4-448e-a487-cb2e388c24f4"",""correlationId"":""7290491f-c3b4-448e-a487-cb2e388c24f4""}",b716e80924dad30dfa0eec0ab98d1f657cfb8a093656986179889793de613d27\r\n1001-2,fae5609c-7d42-4865-804c-865beb046869,merchant-mer_01786931b08c21d98a720569,0,MerchantRegistered,2026-11-28T05:17:19.223Z,"{""name"":""Habesha Delivery"",""merchantId"":""mer_01786931b08c21d98a720569"",""registeredAt"":""2026-11-28T05:17:19.220Z""}","{""actor"":{""id"":""admin"",""type"":""admin""},""causationId"":""d57ff7ea-2605-4ee0-8346-f0810cf16b7e"",""correlationId"":""d57ff7ea-2605-4ee0-8346-f0810cf16b7e""}",3f8aca1c72709f241e0da73f103b5b04a8b2a2039622618da268cd8a0e407d38\r\n1005-3,98a4c6a1-9635-46ae-a0cb-9904a6d88efb,auditor-aud_719dff1c91bfc7d83a5eaebb,0,AuditorRegistered,2026-11-28T05:17:19.276Z,"{""name"":""Seed Auditor"",""auditorId"":""aud_719dff1c91bfc7d83a5eaebb"",""registeredAt"":""2026-11-28T05:17:19.271Z""}","{""actor"":{""id"":""admin"",""type"":""admin""},""causationId"":""2e92b04b-45d1-4f3f-bdda-aa70532e2e3d"",""correlationId"":""2e92b04b-45d1-4f3f-bdda-aa70532e2e3d""}",de675126faac3ab4e2d06b34431db14aaee1b596acb76b76387617b4a2804691\r\n',
  },
  'GET /v1/audit/streams/{streamId}': {
    data: {
      streamId: 'order-ord_bc5734b64d13440bdca208797f197109',
      events: [
        {
          position: '1011-5',
          id: '86a2b1a6-5b9c-4f0f-b081-c9dadd023a0d',
          streamId: 'order-ord_bc5734b64d13440bdca208797f197109',
          revision: '0',
          type: 'OrderCreated',
          data: {
            items: [{ itemName: 'Injera basket', quantity: 1, productId: 'sku-9', unitPrice: 25075 }],
            amount: 25075,
            orderId: 'ord_bc5734b64d13440bdca208797f197109',
            currency: 'ETB',
            customer: { id: 'cus_df91087a4dbbcaf29df8853e', name: 'Almaz Tesfaye', phone: '+251911234567' },
            metadata: { ref: 'r-77' },
            createdAt: '2026-11-28T05:17:19.380Z',
            expiresAt: '2026-11-28T05:47:19.380Z',
            merchantId: 'mer_2ef868dd3eaa4866d7a19e7d',
            callbackUrl: 'https://marketplace.example/callbacks',
            description: 'Order 77',
          },
          metadata: sentBy(MERCHANT, '5642970c-e3f2-4fd9-9c38-1523528a3f31'),
          recordedAt: '2026-11-28T05:17:19.380Z',
          hash: '42bb4a98723fcfea6600c25897f146d0d459e7f61e4fdf6e2c954196d6a1a8f8',
        },
        {
          position: '1027-10',
          id: '8d475828-a7b5-4c35-98d3-4d9a00ee5503',
          streamId: 'order-ord_bc5734b64d13440bdca208797f197109',
          revision: '1',
          type: 'OrderPaid',
          data: { amount: 25075, paidAt: '2026-11-28T05:17:19.526Z', paymentType: 'USSD_PUSH', externalReferenceId: 'SBX-B2EFA81E9DF2E0E7' },
          metadata: sentBy(SANDBOX, 'ntf_8c7cc29c-31b5-4383-b849-6f315d7a03d6'),
          recordedAt: '2026-11-28T05:17:19.545Z',
          hash: 'd66dcd8eeecc3bea24e648c3ceabfd255485115cee91e28fad6e777fda0e142f',
        },
      ],
    },
  },
  'GET /v1/audit/escrows/{escrowId}': {
    data: {
      asOf: '2026-11-28T05:17:24.195Z',
      escrow: {
        escrowId: 'esc_b0003be19d22795076f43dbdabb1411a',
        orderId: 'order-1003',
        amount: 1000.5,
        currency: 'ETB',
        status: 'PARTIALLY_RELEASED',
        paymentUrl: 'http://localhost:3000/checkout/esc_b0003be19d22795076f43dbdabb1411a',
        allocations: [
          {
            merchantId: 'acct_15ce3527c5b25b8263d4fa61b75c76a8',
            accountId: 'acct_15ce3527c5b25b8263d4fa61b75c76a8',
            amount: 600.5,
            metadata: { purpose: 'goods', merchantName: 'Abebe Coffee' },
            status: 'RELEASED',
            held: 0,
            released: 600.5,
            refunded: 0,
            fee: 0,
            commission: null,
            feeEarned: 0,
            frozen: 0,
            reversed: 0,
            feeReturned: 0,
          },
          {
            merchantId: 'acct_7d1e0c2b9a4f4e6b8c3d2a1f0e9d8c7b',
            accountId: 'acct_7d1e0c2b9a4f4e6b8c3d2a1f0e9d8c7b',
            amount: 400,
            metadata: { purpose: 'delivery', merchantName: 'Courier' },
            status: 'HELD',
            held: 399,
            released: 0,
            refunded: 1,
            fee: 0,
            commission: null,
            feeEarned: 0,
            frozen: 0,
            reversed: 0,
            feeReturned: 0,
          },
        ],
        expiredAt: '2026-11-28T05:47:19.461Z',
        callbackURL: 'https://marketplace.example/callbacks',
        redirectUrl: 'https://merchant.example/thanks',
        testClockId: null,
        paymentStatus: 'PAID',
        autoReleaseAt: null,
        description: 'Marketplace order',
        customerId: 'cus_df91087a4dbbcaf29df8853e',
        customerName: 'Abebe Kebede',
        customerPhoneNumber: '+251911234567',
        customerEmail: 'abebe@example.com',
        items: [
          { productId: 'sku-1', item_name: 'Coffee 1kg', quantity: 2, unit_price: 300.25, stock_unit: 'kg' },
          { productId: 'sku-2', item_name: 'Delivery', quantity: 1, unit_price: 400 },
        ],
        externalReferenceId: 'SBX-9A49D57AF02C9CA4',
        metadata: { cartId: 'c-1' },
        createdAt: '2026-11-28T05:17:19.461Z',
        updatedAt: '2026-11-28T05:17:20.844Z',
      },
      events: [
        {
          position: '1020-8',
          id: '73fe05ea-65b3-4e5f-8e57-ed2ed2e7efe3',
          streamId: 'escrow-esc_b0003be19d22795076f43dbdabb1411a',
          revision: '0',
          type: 'EscrowCreated',
          data: {
            items: [
              { itemName: 'Coffee 1kg', quantity: 2, productId: 'sku-1', stockUnit: 'kg', unitPrice: 30025 },
              { itemName: 'Delivery', quantity: 1, productId: 'sku-2', unitPrice: 40000 },
            ],
            amount: 100050,
            orderId: 'order-1003',
            currency: 'ETB',
            customer: { id: 'cus_df91087a4dbbcaf29df8853e', name: 'Abebe Kebede', email: 'abebe@example.com', phone: '+251911234567' },
            escrowId: 'esc_b0003be19d22795076f43dbdabb1411a',
            metadata: { cartId: 'c-1' },
            createdAt: '2026-11-28T05:17:19.461Z',
            expiresAt: '2026-11-28T05:47:19.461Z',
            merchantId: 'mer_2ef868dd3eaa4866d7a19e7d',
            allocations: [
              { amount: 60050, metadata: { purpose: 'goods', merchantName: 'Abebe Coffee' }, merchantId: 'acct_15ce3527c5b25b8263d4fa61b75c76a8' },
              { amount: 40000, metadata: { purpose: 'delivery', merchantName: 'Courier' }, merchantId: 'acct_7d1e0c2b9a4f4e6b8c3d2a1f0e9d8c7b' },
            ],
            callbackUrl: 'https://marketplace.example/callbacks',
            description: 'Marketplace order',
            redirectUrl: 'https://merchant.example/thanks',
            requestFingerprint: '4cbb0d6cbd094789c621168d2843fe01363834088216122194e72fc8d69935f8',
          },
          metadata: sentBy(MERCHANT, '186a6ec2-aba1-446b-92e2-057ca8c364d5'),
          recordedAt: '2026-11-28T05:17:19.461Z',
          hash: '45b85ad84a3075de3c82112b1b423b5423251082f28be6c730f011d05cb3deca',
        },
        {
          position: '1030-11',
          id: '8bae4b01-2138-4d09-8baa-c3b841dbeabe',
          streamId: 'escrow-esc_b0003be19d22795076f43dbdabb1411a',
          revision: '1',
          type: 'EscrowFunded',
          data: { amount: 100050, paidAt: '2026-11-28T05:17:19.592Z', paymentType: 'USSD_PUSH', externalReferenceId: 'SBX-9A49D57AF02C9CA4' },
          metadata: sentBy(SANDBOX, 'ntf_46e31003-87c2-42ff-b036-0a787a9d8125'),
          recordedAt: '2026-11-28T05:17:19.603Z',
          hash: '8e65f8428487546f57f0336d73d39572c27e3869361101bb394cd2416699b159',
        },
      ],
    },
  },
  'GET /v1/audit/ledger/trial-balance': {
    data: {
      mode: 'test',
      balanced: true,
      totalDebits: 2104.51,
      totalCredits: 2104.51,
      accounts: LEDGER_ACCOUNTS,
    },
  },
  'GET /v1/audit/ledger/balances': {
    data: {
      mode: 'test',
      asOf: '2026-11-28T05:17:24.315Z',
      accounts: LEDGER_ACCOUNTS,
    },
  },
  'GET /v1/audit/ledger/accounts/{account}/entries': {
    data: {
      account: 'test:provider:clearing',
      entries: [
        {
          eventId: '8d475828-a7b5-4c35-98d3-4d9a00ee5503',
          eventType: 'OrderPaid',
          streamId: 'order-ord_bc5734b64d13440bdca208797f197109',
          position: '1027-10',
          description: 'Order paid',
          recordedAt: '2026-11-28T05:17:19.545Z',
          debit: 250.75,
          credit: 0,
          balance: 250.75,
        },
        {
          eventId: '8bae4b01-2138-4d09-8baa-c3b841dbeabe',
          eventType: 'EscrowFunded',
          streamId: 'escrow-esc_b0003be19d22795076f43dbdabb1411a',
          position: '1030-11',
          description: 'Escrow funded',
          recordedAt: '2026-11-28T05:17:19.603Z',
          debit: 1000.5,
          credit: 0,
          balance: 1251.25,
        },
      ],
    },
  },
  'GET /v1/audit/integrity': { data: { ok: true, streamsChecked: 29, eventsChecked: 65, firstBreak: null } },
};
