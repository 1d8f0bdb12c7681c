import { type EscrowCreated, type EscrowEvent, type OrderCreated, type OrderEvent, type PayoutEvent, type PayoutSettings, santim, type TransferEvent } from '@app/domain';
import OpenAPIBackend from 'openapi-backend';
import type { Document } from 'openapi-backend';
import { CALLBACK_PAYLOAD_SCHEMAS, CALLBACK_TYPES } from './callback-payload.schemas';
import { endpointCallback, inMode, ownCallback, withPublicBaseUrl } from './addressed-callbacks';
import type { CallbackMessage, SourceEvent } from './callback-message';
import { batchCallbackMessages, CALLBACK_WORTHY, callbackMessage, callbackMessages, deliveryIdFor, planCallback } from './callback-payloads';
import { merchantEventIdFor } from './event-ids';
import { WEBHOOK_EVENT_TYPES } from './webhook-endpoints/webhook-event-types';

const BASE_URL = 'https://pay.example';
const RECORDED_AT = new Date('2030-01-01T10:05:00.000Z');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SPEC_PAID_KEYS = ['billRefNo', 'status', 'timestamp', 'message', 'merchantId', 'customerId', 'externalReferenceId', 'amount', 'payment_type', 'receipt_url'];

const orderCreated = (overrides: Partial<OrderCreated['data']> = {}): OrderCreated => ({
  type: 'OrderCreated',
  data: {
    orderId: 'ord_1',
    merchantId: 'mer_1',
    amount: santim(25_075),
    currency: 'ETB',
    description: 'Order 77',
    customer: { id: 'cus_1', name: 'Almaz Tesfaye', phone: '+251911234567' },
    items: [{ productId: 'sku-9', itemName: 'Injera basket', quantity: 1, unitPrice: santim(25_075) }],
    callbackUrl: 'https://merchant.example/callbacks',
    metadata: { ref: 'r-77' },
    expiresAt: '2030-01-01T10:30:00.000Z',
    createdAt: '2030-01-01T10:00:00.000Z',
    ...overrides,
  },
});

const escrowCreated = (overrides: Partial<EscrowCreated['data']> = {}): EscrowCreated => ({
  type: 'EscrowCreated',
  data: {
    escrowId: 'esc_1',
    merchantId: 'mer_1',
    orderId: 'ORDER-1',
    amount: santim(100_050),
    currency: 'ETB',
    customer: { id: 'cus_2', name: 'Abebe Kebede', phone: '+251911234567' },
    items: [{ productId: 'sku-1', itemName: 'Coffee', quantity: 1, unitPrice: santim(100_050) }],
    allocations: [
      { merchantId: 'seller-1', amount: santim(60_050) },
      { merchantId: 'courier-1', amount: santim(40_000) },
    ],
    callbackUrl: 'https://merchant.example/escrow-callbacks',
    metadata: { cartId: 'c-1' },
    expiresAt: '2030-01-01T10:30:00.000Z',
    requestFingerprint: 'fp-1',
    createdAt: '2030-01-01T10:00:00.000Z',
    ...overrides,
  },
});

const orderPaid: OrderEvent = { type: 'OrderPaid', data: { externalReferenceId: 'SBX-1', paymentType: 'USSD_PUSH', amount: santim(25_075), paidAt: '2030-01-01T10:04:00.000Z' } };
const orderFailed: OrderEvent = { type: 'OrderPaymentFailed', data: { externalReferenceId: 'SBX-1', reason: 'DECLINED', failedAt: '2030-01-01T10:04:00.000Z' } };
const orderRefused: OrderEvent = { type: 'OrderPaymentRefused', data: { externalReferenceId: 'SBX-2', amount: santim(25_075), reason: 'ALREADY_PAID', receivedAt: '2030-01-01T10:04:30.000Z' } };
const orderRefundRequested: OrderEvent = {
  type: 'OrderRefundRequested',
  data: { refundId: 'ord_1-refund-1', amount: santim(25_075), paymentReferenceId: 'SBX-2', requestedAt: '2030-01-01T10:04:30.000Z' },
};
const orderRefundCompleted: OrderEvent = { type: 'OrderRefundCompleted', data: { refundId: 'ord_1-refund-1', externalReferenceId: 'SBX-R-1', completedAt: '2030-01-01T10:05:00.000Z' } };

const escrowFunded: EscrowEvent = { type: 'EscrowFunded', data: { externalReferenceId: 'SBX-3', paymentType: 'USSD_PUSH', amount: santim(100_050), paidAt: '2030-01-01T10:04:00.000Z' } };
const escrowFailed: EscrowEvent = { type: 'EscrowPaymentFailed', data: { externalReferenceId: 'SBX-3', reason: 'INSUFFICIENT_FUNDS', failedAt: '2030-01-01T10:04:00.000Z' } };
const allocationReleased: EscrowEvent = { type: 'AllocationReleased', data: { merchantId: 'seller-1', amount: santim(60_050), releasedAt: '2030-01-01T10:05:00.000Z' } };
const escrowCancelled: EscrowEvent = { type: 'EscrowCancelled', data: { reason: 'out of stock', cancelledAt: '2030-01-01T10:05:00.000Z' } };
const escrowRefundRequested: EscrowEvent = {
  type: 'EscrowRefundRequested',
  data: {
    refundId: 'esc_1-refund-1',
    amount: santim(100_050),
    merchantIds: ['seller-1', 'courier-1'],
    reason: 'CANCELLED',
    paymentReferenceId: 'SBX-3',
    requestedAt: '2030-01-01T10:05:00.000Z',
  },
};
const escrowRefundCompleted: EscrowEvent = { type: 'EscrowRefundCompleted', data: { refundId: 'esc_1-refund-1', externalReferenceId: 'SBX-R-2', completedAt: '2030-01-01T10:06:00.000Z' } };

const payoutSettings = (callbackUrl: string | null, version = 1): PayoutEvent => ({
  type: 'PayoutSettingsChanged',
  data: { merchantId: 'mer_1', version, settings: { schedule: { kind: 'daily', hour: 9 }, minimumAmount: santim(1), callbackUrl } satisfies PayoutSettings, changedAt: '2030-01-01T09:00:00.000Z' },
});
const payoutDestination = (version: number, accountMask: string): PayoutEvent => ({
  type: 'PayoutDestinationSet',
  data: { merchantId: 'mer_1', version, destination: { kind: 'bank', institution: '946', holderName: 'Almaz Tesfaye', accountMask, accountRef: 'acct_secret', accountFingerprint: 'fp_secret' }, setAt: '2030-01-01T09:00:00.000Z' },
});
const payoutRequested: PayoutEvent = {
  type: 'PayoutRequested',
  data: { merchantId: 'mer_1', payoutId: 'po_1', amount: santim(60_050), destinationVersion: 1, settles: [{ eventId: 'e1', amount: 60_050 }], trigger: 'on-demand', requestedAt: '2030-01-01T10:00:00.000Z' },
};
const payoutPaid: PayoutEvent = { type: 'PayoutPaid', data: { merchantId: 'mer_1', payoutId: 'po_1', amount: santim(60_050), externalReferenceId: 'SBX-T-1', paidAt: '2030-01-01T10:05:00.000Z' } };
const payoutFailed: PayoutEvent = { type: 'PayoutFailed', data: { merchantId: 'mer_1', payoutId: 'po_1', amount: santim(60_050), reason: 'BOUNCED', failedAt: '2030-01-01T10:05:00.000Z' } };

let nextId = 0;
/** The source event as the dispatcher sees it, with the history of its stream up to and including it. */
function source(streamId: string, history: readonly { type: string; data: unknown }[], id = `evt-${(nextId += 1)}`): [SourceEvent, typeof history] {
  const last = history[history.length - 1];
  return [{ id, type: last.type, streamId, data: last.data, recordedAt: RECORDED_AT }, history];
}

/** Planned for a test tenant's event, as most of the service's own tests run. */
function plan(streamId: string, history: readonly { type: string; data: unknown }[], id?: string, livemode = false) {
  const [event, upTo] = source(streamId, history, id);
  return planCallback(event, upTo, BASE_URL, livemode);
}

/**
 * The payload schemas the API document states (callback-payload.schemas.ts), checked with the validator
 * the contract test uses: a payload with a field, a missing field or a type they lack fails here.
 */
const schemaDocument = {
  openapi: '3.0.3',
  info: { title: 'callback payloads', version: '1' },
  paths: {
    '/callback': {
      post: {
        operationId: 'callback',
        requestBody: { required: true, content: { 'application/json': { schema: { oneOf: Object.keys(CALLBACK_PAYLOAD_SCHEMAS).map((name) => ({ $ref: `#/components/schemas/${name}` })) } } } },
        responses: { 200: { description: 'delivered' } },
      },
    },
  },
  components: { schemas: CALLBACK_PAYLOAD_SCHEMAS },
};
const schemas = new OpenAPIBackend({ definition: schemaDocument as unknown as Document, validate: true, strict: true, ajvOpts: { allErrors: true, validateFormats: false } });
const validated = new Set<string>();
beforeAll(() => schemas.init());

function expectDocumented(payload: Record<string, any>): void {
  const result = schemas.validateRequest({ method: 'post', path: '/callback', headers: { 'content-type': 'application/json' }, body: payload }, 'callback');
  expect(result.errors ?? []).toEqual([]);
  validated.add(payload.status);
}

/** A message's payload as it is sent: in its tenant's mode. */
const sent = (message: CallbackMessage) => inMode(message, true).payload;

function payloadOf(planned: ReturnType<typeof planCallback>): Record<string, any> {
  expect(planned).toBeDefined();
  const body = planned!.body;
  // docs/concepts/callbacks.md: compact JSON.stringify output, so re-serialising the parsed body gives the same bytes.
  expect(JSON.stringify(JSON.parse(body))).toBe(body);
  expectDocumented(JSON.parse(body));
  return JSON.parse(body);
}

describe('planCallback', () => {
  describe('plain orders', () => {
    it("OrderPaid: the spec's PAID shape in its order, then orderId, metadata and deliveryId", () => {
      const planned = plan('order-ord_1', [orderCreated(), orderPaid], 'evt-paid');
      expect(planned).toMatchObject({ deliveryId: deliveryIdFor('evt-paid'), merchantId: 'mer_1', orderId: 'ord_1', url: 'https://merchant.example/callbacks' });
      expect(planned!.merchantOrderId).toBeUndefined();
      const payload = payloadOf(planned);
      expect(Object.keys(payload)).toEqual([...SPEC_PAID_KEYS, 'orderId', 'metadata', 'deliveryId', 'livemode']);
      expect(payload).toEqual({
        billRefNo: 'ord_1',
        status: 'PAID',
        timestamp: RECORDED_AT.toISOString(),
        message: expect.any(String),
        merchantId: 'mer_1',
        customerId: 'cus_1',
        externalReferenceId: 'SBX-1',
        amount: 250.75,
        payment_type: 'USSD_PUSH',
        receipt_url: `${BASE_URL}/receipts/ord_1`,
        orderId: 'ord_1',
        metadata: { ref: 'r-77' },
        deliveryId: deliveryIdFor('evt-paid'),
        livemode: false,
      });
    });

    it('says the mode of the tenant whose event it is, after deliveryId', () => {
      const live = payloadOf(plan('order-ord_1', [orderCreated(), orderPaid], 'evt-paid', true));
      expect(Object.keys(live).slice(-2)).toEqual(['deliveryId', 'livemode']);
      expect(live.livemode).toBe(true);
      expect(payloadOf(plan('order-ord_1', [orderCreated(), orderPaid], 'evt-paid', false)).livemode).toBe(false);
    });

    it("OrderPaymentFailed: the spec's FAILED shape (billRefNo, status, message) first", () => {
      const payload = payloadOf(plan('order-ord_1', [orderCreated(), orderFailed]));
      expect(Object.keys(payload).slice(0, 4)).toEqual(['billRefNo', 'status', 'timestamp', 'message']);
      expect(payload).toMatchObject({ billRefNo: 'ord_1', status: 'FAILED', orderId: 'ord_1', merchantId: 'mer_1', metadata: { ref: 'r-77' } });
      expect(payload.message).toContain('DECLINED');
    });

    it('OrderRefundCompleted: REFUNDED with the amount of that refund', () => {
      const payload = payloadOf(plan('order-ord_1', [orderCreated(), orderPaid, orderRefused, orderRefundRequested, orderRefundCompleted]));
      expect(payload).toMatchObject({ billRefNo: 'ord_1', status: 'REFUNDED', amount: 250.75, refundId: 'ord_1-refund-1', externalReferenceId: 'SBX-R-1', orderId: 'ord_1' });
    });

    it('an order without metadata sends an empty object', () => {
      expect(payloadOf(plan('order-ord_1', [orderCreated({ metadata: undefined }), orderPaid])).metadata).toEqual({});
    });
  });

  describe('escrows', () => {
    it('EscrowFunded: PAID with the merchant orderId as billRefNo, plus escrowId', () => {
      const planned = plan('escrow-esc_1', [escrowCreated(), escrowFunded], 'evt-funded');
      expect(planned).toMatchObject({ merchantId: 'mer_1', orderId: 'esc_1', merchantOrderId: 'ORDER-1', url: 'https://merchant.example/escrow-callbacks' });
      const payload = payloadOf(planned);
      expect(Object.keys(payload).slice(0, SPEC_PAID_KEYS.length)).toEqual(SPEC_PAID_KEYS);
      expect(payload).toMatchObject({
        billRefNo: 'ORDER-1',
        status: 'PAID',
        timestamp: expect.stringMatching(ISO),
        merchantId: 'mer_1',
        customerId: 'cus_2',
        externalReferenceId: 'SBX-3',
        amount: 1000.5,
        payment_type: 'USSD_PUSH',
        receipt_url: `${BASE_URL}/receipts/esc_1`,
        orderId: 'ORDER-1',
        escrowId: 'esc_1',
        metadata: { cartId: 'c-1' },
        deliveryId: deliveryIdFor('evt-funded'),
      });
    });

    it('EscrowPaymentFailed: FAILED', () => {
      const payload = payloadOf(plan('escrow-esc_1', [escrowCreated(), escrowFailed]));
      expect(payload).toMatchObject({ billRefNo: 'ORDER-1', status: 'FAILED', escrowId: 'esc_1' });
      expect(payload.message).toContain('INSUFFICIENT_FUNDS');
    });

    it('AllocationReleased: RELEASED with the allocation released', () => {
      const payload = payloadOf(plan('escrow-esc_1', [escrowCreated(), escrowFunded, allocationReleased]));
      expect(payload).toMatchObject({ status: 'RELEASED', amount: 600.5, allocation: { merchantId: 'seller-1', amount: 600.5 }, escrowId: 'esc_1' });
    });

    it('EscrowCancelled: CANCELLED, with the reason in the message', () => {
      const payload = payloadOf(plan('escrow-esc_1', [escrowCreated(), escrowFunded, escrowCancelled]));
      expect(payload).toMatchObject({ status: 'CANCELLED', escrowId: 'esc_1', orderId: 'ORDER-1' });
      expect(payload.message).toContain('out of stock');
    });

    it('EscrowRefundCompleted: REFUNDED with the amount refunded', () => {
      const payload = payloadOf(plan('escrow-esc_1', [escrowCreated(), escrowFunded, escrowCancelled, escrowRefundRequested, escrowRefundCompleted]));
      expect(payload).toMatchObject({ status: 'REFUNDED', amount: 1000.5, refundId: 'esc_1-refund-1', externalReferenceId: 'SBX-R-2', escrowId: 'esc_1' });
    });
  });

  describe('marketplace flows', () => {
    const disputeOpened: EscrowEvent = { type: 'DisputeOpened', data: { merchantIds: ['seller-1'], reason: 'never arrived', openedAt: '2030-01-01T10:05:00.000Z' } };
    const disputeResolved: EscrowEvent = {
      type: 'DisputeResolved',
      data: { resolutions: [{ merchantId: 'seller-1', release: santim(30_000), refund: santim(30_050) }], note: 'half', resolvedAt: '2030-01-01T10:06:00.000Z' },
    };

    it('DisputeOpened: DISPUTED with the frozen amount of each allocation and the reason', () => {
      const payload = payloadOf(plan('escrow-esc_1', [escrowCreated(), escrowFunded, disputeOpened]));
      expect(payload).toMatchObject({
        status: 'DISPUTED',
        message: '600.50 ETB of seller-1 frozen under dispute: never arrived',
        reason: 'never arrived',
        allocations: [{ merchantId: 'seller-1', frozen: 600.5 }],
        escrow_status: 'DISPUTED',
      });
    });

    it('DisputeResolved: DISPUTE_RESOLVED with each split', () => {
      const payload = payloadOf(plan('escrow-esc_1', [escrowCreated(), escrowFunded, disputeOpened, disputeResolved]));
      expect(payload).toMatchObject({ status: 'DISPUTE_RESOLVED', allocations: [{ merchantId: 'seller-1', release: 300, refund: 300.5 }] });
    });

    it('an automatic release says so; a plain order with a fee carries gross, fee and net', () => {
      const automatic: EscrowEvent = { type: 'AllocationReleased', data: { merchantId: 'seller-1', amount: santim(60_050), releasedAt: '2030-01-01T10:05:00.000Z', automatic: true } };
      expect(payloadOf(plan('escrow-esc_1', [escrowCreated(), escrowFunded, automatic]))).toMatchObject({ status: 'RELEASED', automatic: true });
      expect(payloadOf(plan('escrow-esc_1', [escrowCreated(), escrowFunded, allocationReleased])).automatic).toBeUndefined();
      expect(payloadOf(plan('order-ord_1', [orderCreated({ fee: santim(2_500) }), orderPaid]))).toMatchObject({ status: 'PAID', amount: 250.75, fee: 25, net: 225.75 });
    });

    it('sends each body byte for byte as built, in the order its fields are signed and listed', () => {
      const released: EscrowEvent = { type: 'AllocationReleased', data: { merchantId: 'seller-1', amount: santim(30_000), fee: santim(1_000), releasedAt: '2030-01-01T10:05:00.000Z', automatic: true } };
      const bodies = [
        plan('escrow-esc_1', [escrowCreated(), escrowFunded], 'evt-funded'),
        plan('escrow-esc_1', [escrowCreated(), escrowFunded, released], 'evt-released'),
        plan('escrow-esc_1', [escrowCreated(), escrowFunded, escrowCancelled, escrowRefundRequested, escrowRefundCompleted], 'evt-refunded'),
        plan('order-ord_1', [orderCreated({ fee: santim(2_500) }), orderPaid], 'evt-paid'),
      ].map((planned) => planned!.body);
      expect(bodies).toEqual([
        '{"billRefNo":"ORDER-1","status":"PAID","timestamp":"2030-01-01T10:05:00.000Z","message":"Payment received; the funds are held in escrow","merchantId":"mer_1","customerId":"cus_2","externalReferenceId":"SBX-3","amount":1000.5,"payment_type":"USSD_PUSH","receipt_url":"https://pay.example/receipts/esc_1","orderId":"ORDER-1","escrowId":"esc_1","escrow_status":"HELD","metadata":{"cartId":"c-1"},"deliveryId":"dlv_731a75c50c783071951cac373c1640d4","livemode":false}',
        '{"billRefNo":"ORDER-1","status":"RELEASED","timestamp":"2030-01-01T10:05:00.000Z","message":"300 ETB of the allocation of seller-1 was released; 300.50 ETB is still held","merchantId":"mer_1","amount":300,"fee":10,"net":290,"automatic":true,"allocation":{"merchantId":"seller-1","amount":300,"status":"PARTIALLY_RELEASED","allocationAmount":600.5,"held":300.5,"released":300},"orderId":"ORDER-1","escrowId":"esc_1","escrow_status":"PARTIALLY_RELEASED","metadata":{"cartId":"c-1"},"deliveryId":"dlv_ca7bd2c0242ce2d9888d75d7c0a15fba","livemode":false}',
        '{"billRefNo":"ORDER-1","status":"REFUNDED","timestamp":"2030-01-01T10:05:00.000Z","message":"The money still held was refunded to the customer","merchantId":"mer_1","externalReferenceId":"SBX-R-2","amount":1000.5,"refundId":"esc_1-refund-1","orderId":"ORDER-1","escrowId":"esc_1","escrow_status":"REFUNDED","metadata":{"cartId":"c-1"},"deliveryId":"dlv_829087161060e3ef0a46414e06beeffb","livemode":false}',
        '{"billRefNo":"ord_1","status":"PAID","timestamp":"2030-01-01T10:05:00.000Z","message":"Payment received","merchantId":"mer_1","customerId":"cus_1","externalReferenceId":"SBX-1","amount":250.75,"payment_type":"USSD_PUSH","receipt_url":"https://pay.example/receipts/ord_1","fee":25,"net":225.75,"orderId":"ord_1","metadata":{"ref":"r-77"},"deliveryId":"dlv_b675206171bb6e17a8b3388ebd3454ca","livemode":false}',
      ]);
    });
  });

  it('covers every callback-worthy type', () => {
    expect([...CALLBACK_WORTHY].sort()).toEqual(
      [
        'AllocationReleased',
        'DisputeOpened',
        'DisputeResolved',
        'EscrowCancelled',
        'EscrowFunded',
        'EscrowPaymentFailed',
        'EscrowRefundCompleted',
        'OrderPaid',
        'OrderPaymentFailed',
        'OrderRefundCompleted',
        'PayoutFailed',
        'PayoutPaid',
        'PayoutCanceled',
        'PayoutsPaused',
        'PayoutsResumed',
        'WebhookEndpointTestRequested',
        'TransferCreated',
        'TransferReversed',
        'AccountUpdated',
        'AccountClosed',
        'AccountVerified',
        'AccountRejected',
        'AccountRestricted',
        'AccountRestrictionLifted',
        'AccountPayoutDestinationChanged',
        'AccountInformationRequested',
        'AccountDocumentUploaded',
        'PayoutSettingsChanged',
      ].sort(),
    );
  });

  describe('to webhook endpoints', () => {
    const message = (streamId: string, history: readonly { type: string; data: unknown }[], id?: string) => {
      const [event, upTo] = source(streamId, history, id);
      return inMode(callbackMessage(event, upTo, BASE_URL)!, false);
    };
    const ENDPOINT = { endpointId: 'we_1', merchantId: 'mer_1', url: 'https://hooks.example/all' };

    it('tells an endpoint what the order’s URL is told, under a delivery id of its own in the same place, and then the event’s events API id', () => {
      const toOrder = plan('order-ord_1', [orderCreated(), orderPaid], 'evt-paid')!;
      const toEndpoint = endpointCallback(message('order-ord_1', [orderCreated(), orderPaid], 'evt-paid'), 'evt-paid', ENDPOINT);
      expect(toEndpoint).toMatchObject({ merchantId: 'mer_1', orderId: 'ord_1', url: ENDPOINT.url, endpointId: 'we_1' });
      expect(toEndpoint.deliveryId).not.toBe(toOrder.deliveryId);
      expect(toEndpoint.deliveryId).toBe(endpointCallback(message('order-ord_1', [orderCreated(), orderPaid], 'evt-paid'), 'evt-paid', ENDPOINT).deliveryId);
      const eventId = merchantEventIdFor('evt-paid');
      expect(eventId).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(toEndpoint.body).toBe(`${toOrder.body.replace(toOrder.deliveryId, toEndpoint.deliveryId).slice(0, -1)},"eventId":"${eventId}"}`);
      expect(payloadOf(toEndpoint).eventId).toBe(eventId);
      // The order's callbackURL is sent the spec's payload, which names no eventId.
      expect(payloadOf(toOrder)).not.toHaveProperty('eventId');
    });

    it('names an event by the same eventId at every endpoint and on every retry, and each event by its own', () => {
      const paid = message('order-ord_1', [orderCreated(), orderPaid], 'evt-paid');
      const other = { ...ENDPOINT, endpointId: 'we_2', url: 'https://hooks.example/paid' };
      const [first, second] = [endpointCallback(paid, 'evt-paid', ENDPOINT), endpointCallback(paid, 'evt-paid', other)];
      expect(second.deliveryId).not.toBe(first.deliveryId);
      expect(payloadOf(second).eventId).toBe(payloadOf(first).eventId);
      expect(payloadOf(endpointCallback(paid, 'evt-paid', ENDPOINT)).eventId).toBe(payloadOf(first).eventId);
      const failed = message('order-ord_2', [orderCreated({ orderId: 'ord_2' }), orderFailed], 'evt-failed');
      expect(payloadOf(endpointCallback(failed, 'evt-failed', ENDPOINT)).eventId).not.toBe(payloadOf(first).eventId);
    });

    it('an order without a callbackURL still has a message for endpoints, and nothing for its own URL', () => {
      const quiet = message('escrow-esc_1', [escrowCreated({ callbackUrl: undefined }), escrowFunded]);
      expect(quiet).toMatchObject({ status: 'PAID', merchantId: 'mer_1', orderId: 'esc_1', merchantOrderId: 'ORDER-1' });
      expect(ownCallback(quiet)).toBeUndefined();
      expect(message('payouts-mer_1', [payoutDestination(1, '••••6789'), payoutSettings(null), payoutRequested, payoutPaid])).toMatchObject({ status: 'PAYOUT_PAID' });
    });

    it('names every status a callback has among the types an endpoint subscribes to', () => {
      const statuses = [
        message('order-ord_1', [orderCreated(), orderPaid]),
        message('order-ord_1', [orderCreated(), orderFailed]),
        message('escrow-esc_1', [escrowCreated(), escrowFunded, allocationReleased]),
        message('escrow-esc_1', [escrowCreated(), escrowCancelled]),
        message('escrow-esc_1', [escrowCreated(), escrowFunded, escrowCancelled, escrowRefundRequested, escrowRefundCompleted]),
        message('payouts-mer_1', [payoutDestination(1, '••••6789'), payoutRequested, payoutFailed]),
      ].map((m) => m.status);
      for (const status of statuses) expect(WEBHOOK_EVENT_TYPES).toContain(status);
    });

    it('sends a test event to its endpoint alone, signed and shaped like the others', () => {
      const requested = { type: 'WebhookEndpointTestRequested', data: { endpointId: 'we_1', merchantId: 'mer_1', testId: 'evt_test_1', requestedAt: RECORDED_AT.toISOString() } };
      const test = message('webhook-endpoint-we_1', [requested], 'evt-test');
      expect(test).toMatchObject({ status: 'TEST', endpointId: 'we_1', orderId: 'we_1', merchantId: 'mer_1' });
      expect(ownCallback(test)).toBeUndefined();
      // The events API lists no test: its delivery names it by its test id, as POST …/test answered, never an id the events API could list.
      expect(payloadOf(endpointCallback(test, 'evt-test', ENDPOINT))).toMatchObject({ billRefNo: 'evt_test_1', status: 'TEST', endpointId: 'we_1', eventId: 'evt_test_1' });
    });
  });

  describe('payouts', () => {
    const URL = 'https://merchant.example/payout-callbacks';

    it('PayoutPaid: PAYOUT_PAID to the payout callback URL, with the amount, reference and the destination masked', () => {
      const planned = plan('payouts-mer_1', [payoutDestination(1, '••••6789'), payoutSettings(URL), payoutRequested, payoutPaid], 'evt-po-paid');
      expect(planned).toMatchObject({ deliveryId: deliveryIdFor('evt-po-paid'), merchantId: 'mer_1', orderId: 'po_1', url: URL });
      const payload = payloadOf(planned);
      expect(payload).toEqual({
        billRefNo: 'po_1',
        status: 'PAYOUT_PAID',
        timestamp: RECORDED_AT.toISOString(),
        message: '600.50 ETB was paid out to ••••6789',
        merchantId: 'mer_1',
        payoutId: 'po_1',
        amount: 600.5,
        currency: 'ETB',
        providerReference: 'SBX-T-1',
        destination: { kind: 'bank', institution: '946', holderName: 'Almaz Tesfaye', accountNumber: '••••6789' },
        orderId: 'po_1',
        deliveryId: deliveryIdFor('evt-po-paid'),
        livemode: false,
      });
      expect(planned!.body).not.toContain('acct_secret');
      expect(planned!.body).not.toContain('fp_secret');
    });

    it('PayoutFailed: PAYOUT_FAILED with the reason, telling the money is back in the payable', () => {
      const payload = payloadOf(plan('payouts-mer_1', [payoutDestination(1, '••••0002'), payoutSettings(URL), payoutRequested, payoutFailed]));
      expect(payload).toMatchObject({ status: 'PAYOUT_FAILED', amount: 600.5, failureReason: 'BOUNCED', destination: { accountNumber: '••••0002' } });
      expect(payload.message).toContain('back in your payable balance');
      expect(payload.providerReference).toBeUndefined();
    });

    it('PayoutCanceled: PAYOUT_CANCELED to the URL it names, telling the money is back in the payable', () => {
      const canceled: PayoutEvent = { type: 'PayoutCanceled', data: { merchantId: 'mer_1', payoutId: 'po_1', amount: santim(60_050), canceledAt: '2030-01-01T10:05:00.000Z', callbackUrl: URL } };
      const planned = plan('payout-po_1', [payoutDestination(1, '••••0002'), payoutRequested, canceled]);
      expect(planned!.url).toBe(URL);
      const payload = payloadOf(planned);
      expect(payload).toMatchObject({ status: 'PAYOUT_CANCELED', payoutId: 'po_1', amount: 600.5 });
      expect(payload.message).toContain('back in your payable balance');
      expectDocumented(payload);
    });

    it('goes to the URL in force when the payout ended, names the destination it was paid to, and is not sent without a URL', () => {
      const later = 'https://merchant.example/new-payout-callbacks';
      const history = [payoutDestination(1, '••••6789'), payoutSettings(URL), payoutRequested, payoutDestination(2, '••••1111'), payoutSettings(later, 2), payoutPaid];
      const planned = plan('payouts-mer_1', history);
      expect(planned!.url).toBe(later);
      expect(payloadOf(planned).destination.accountNumber).toBe('••••6789');
      expect(plan('payouts-mer_1', [payoutDestination(1, '••••6789'), payoutRequested, payoutPaid])).toBeUndefined();
      expect(plan('payouts-mer_1', [payoutDestination(1, '••••6789'), payoutSettings(URL), payoutRequested, payoutSettings(null, 2), payoutPaid])).toBeUndefined();
    });

    it('goes to the URL the outcome names, since the settings have a stream of their own: the account keeps none', () => {
      const named = (callbackUrl: string | null): PayoutEvent => ({ ...payoutPaid, data: { ...payoutPaid.data, callbackUrl } }) as PayoutEvent;
      expect(plan('payouts-mer_1', [payoutDestination(1, '••••6789'), payoutRequested, named(URL)])!.url).toBe(URL);
      expect(plan('payouts-mer_1', [payoutDestination(1, '••••6789'), payoutSettings(URL), payoutRequested, named(null)])).toBeUndefined();
      const failed = { ...payoutFailed, data: { ...payoutFailed.data, callbackUrl: URL } } as PayoutEvent;
      expect(payloadOf(plan('payouts-mer_1', [payoutDestination(1, '••••0002'), payoutRequested, failed])).status).toBe('PAYOUT_FAILED');
    });
  });

  describe('transfers', () => {
    const URL = 'https://platform.example/payout-callbacks';
    const created = (source: string, destination: string, callbackUrl: string | null = URL): TransferEvent => ({
      type: 'TransferCreated',
      data: { transferId: 'tr_1', platformId: 'mer_1', source, destination, amount: santim(5_000), description: 'Goodwill bonus', metadata: { campaign: 'nov' }, allowNegative: false, callbackUrl, createdAt: '2030-01-01T10:00:00.000Z' },
    });
    const reversed = (amount: number, n: number, callbackUrl: string | null = URL): TransferEvent => ({
      type: 'TransferReversed',
      data: { transferId: 'tr_1', reversalId: `tr_1-reversal-${n}`, platformId: 'mer_1', source: 'mer_1', destination: 'mer_2', amount: santim(amount), reversedAt: '2030-01-01T10:05:00.000Z', callbackUrl },
    });

    it("TransferCreated: TRANSFER_CREATED to the platform's payout callback URL, with both sides and the direction", () => {
      const planned = plan('transfer-tr_1', [created('mer_1', 'mer_2')], 'evt-tr-1');
      expect(planned).toMatchObject({ merchantId: 'mer_1', orderId: 'tr_1', url: URL });
      expect(payloadOf(planned)).toEqual({
        billRefNo: 'tr_1',
        status: 'TRANSFER_CREATED',
        timestamp: RECORDED_AT.toISOString(),
        message: '50 ETB transferred to mer_2: Goodwill bonus',
        merchantId: 'mer_1',
        transferId: 'tr_1',
        direction: 'to',
        source: 'mer_1',
        destination: 'mer_2',
        amount: 50,
        currency: 'ETB',
        description: 'Goodwill bonus',
        metadata: { campaign: 'nov' },
        belongsTo: { escrowId: null, orderId: null },
        orderId: 'tr_1',
        deliveryId: deliveryIdFor('evt-tr-1'),
        livemode: false,
      });
      expect(payloadOf(plan('transfer-tr_1', [created('mer_2', 'mer_1')])).message).toBe('50 ETB transferred from mer_2: Goodwill bonus');
    });

    it('says what the transfer belongs to, on its creation and its reversals, apart from the orderId that names the transfer', () => {
      const made = created('mer_1', 'mer_2') as Extract<TransferEvent, { type: 'TransferCreated' }>;
      const forEscrow: TransferEvent = { ...made, data: { ...made.data, escrowId: 'esc_1' } };
      expect(payloadOf(plan('transfer-tr_1', [forEscrow]))).toMatchObject({ belongsTo: { escrowId: 'esc_1', orderId: null }, orderId: 'tr_1' });
      expect(payloadOf(plan('transfer-tr_1', [forEscrow, reversed(1_000, 1)]))).toMatchObject({ status: 'TRANSFER_REVERSED', belongsTo: { escrowId: 'esc_1', orderId: null } });
    });

    it('TransferReversed: TRANSFER_REVERSED with this reversal and all reversed so far', () => {
      const payload = payloadOf(plan('transfer-tr_1', [created('mer_1', 'mer_2'), reversed(1_000, 1), reversed(1_500, 2)]));
      expect(payload).toMatchObject({ status: 'TRANSFER_REVERSED', amount: 15, reversed: 25, reversalId: 'tr_1-reversal-2', direction: 'to' });
      expect(payload.message).toBe('15 ETB of the transfer to mer_2 reversed; 25 of 50 ETB reversed in all');
    });

    it("leaves the other party out when the sender says nothing takes its message", () => {
      const [made] = [created('mer_2', 'mer_1', null)].map((e) => ({ ...e, id: 'evt-tr', streamId: 'transfer-tr_1', recordedAt: RECORDED_AT, revision: 0n }));
      const told = (tells: (party: string) => boolean) => [...batchCallbackMessages([made], () => [made], '', undefined, tells).values()][0].map((m) => m.merchantId);
      expect(told((party) => party !== 'mer_2')).toEqual(['mer_1']);
      expect(told(() => true)).toEqual(['mer_1', 'mer_2']);
    });

    it('is not sent without a URL, and tells both sides, each under a delivery of its own', () => {
      expect(plan('transfer-tr_1', [created('mer_1', 'mer_2', null)])).toBeUndefined();
      const [event, history] = source('transfer-tr_1', [created('mer_2', 'mer_1', null)], 'evt-both');
      const [platform, other] = callbackMessages(event, history, '');
      expect(platform).toMatchObject({ merchantId: 'mer_1', payload: { deliveryId: deliveryIdFor('evt-both') } });
      expect(other).toMatchObject({ merchantId: 'mer_2', status: 'TRANSFER_CREATED' });
      expect(other.url).toBeUndefined();
      expect(other.payload).toEqual({ ...platform.payload, deliveryId: deliveryIdFor('evt-both\nmer_2') });
    });
  });

  describe('seller accounts', () => {
    const SELLER = `acct_${'1'.repeat(32)}`;
    const OTHER = `acct_${'2'.repeat(32)}`;
    const split = escrowCreated({
      allocations: [
        { merchantId: SELLER, amount: santim(60_050), fee: santim(6_005), account: true },
        { merchantId: OTHER, amount: santim(30_000), account: true },
        { merchantId: 'mer_1', amount: santim(10_000), account: false },
      ],
    });
    const messagesOf = (history: readonly { type: string; data: unknown }[], id = 'evt-s') => {
      const [event, upTo] = source('escrow-esc_1', history, id);
      return callbackMessages(event, upTo, BASE_URL);
    };
    const payloadFor = (messages: ReturnType<typeof messagesOf>, merchantId: string) => {
      const message = messages.find((m) => m.merchantId === merchantId)!;
      expect(message.url).toBeUndefined();
      expect(message.payload.deliveryId).toBe(deliveryIdFor(`evt-s\n${merchantId}`));
      expect(message.payload).not.toHaveProperty('eventId');
      expectDocumented(sent(message));
      return message.payload as Record<string, any>;
    };

    it('HELD when paid: each account its own allocation, the platform the payment as before', () => {
      const messages = messagesOf([split, escrowFunded]);
      expect(messages.map((m) => m.merchantId)).toEqual(['mer_1', SELLER, OTHER]);
      expect(messages[0].status).toBe('PAID');
      expect(payloadFor(messages, SELLER)).toMatchObject({ status: 'HELD', merchantId: 'mer_1', accountId: SELLER, amount: 600.5, fee: 60.05, net: 540.45, escrowId: 'esc_1', orderId: 'ORDER-1' });
      expect(payloadFor(messages, OTHER)).toMatchObject({ status: 'HELD', amount: 300 });
      expect(JSON.stringify(payloadFor(messages, OTHER))).not.toContain('600.5');
    });

    it('RELEASED to the released account alone', () => {
      const released: EscrowEvent = { type: 'AllocationReleased', data: { merchantId: SELLER, amount: santim(60_050), fee: santim(6_005), releasedAt: '2030-01-01T10:05:00.000Z' } };
      const messages = messagesOf([split, escrowFunded, released]);
      expect(messages.map((m) => m.merchantId)).toEqual(['mer_1', SELLER]);
      const payload = payloadFor(messages, SELLER);
      expect(payload).toMatchObject({ status: 'RELEASED', accountId: SELLER, amount: 600.5, fee: 60.05, net: 540.45, allocation: { merchantId: SELLER } });
      expect(JSON.stringify(payload)).not.toContain(OTHER);
    });

    it('DISPUTED, DISPUTE_RESOLVED and REFUNDED: each account its own share only', () => {
      const opened: EscrowEvent = { type: 'DisputeOpened', data: { merchantIds: [SELLER, OTHER], reason: 'not delivered', openedAt: '2030-01-01T10:05:00.000Z' } } as EscrowEvent;
      const disputed = messagesOf([split, escrowFunded, opened]);
      expect(payloadFor(disputed, SELLER)).toMatchObject({ status: 'DISPUTED', allocations: [{ merchantId: SELLER, frozen: 600.5 }] });
      expect(payloadFor(disputed, OTHER)).toMatchObject({ status: 'DISPUTED', allocations: [{ merchantId: OTHER, frozen: 300 }] });
      const resolved = {
        type: 'DisputeResolved',
        data: { resolutions: [{ merchantId: SELLER, release: santim(60_050), refund: santim(0) }, { merchantId: OTHER, release: santim(0), refund: santim(30_000) }], resolvedAt: '2030-01-01T10:06:00.000Z' },
      } as EscrowEvent;
      const settled = messagesOf([split, escrowFunded, opened, resolved]);
      expect(payloadFor(settled, OTHER)).toMatchObject({ status: 'DISPUTE_RESOLVED', allocations: [{ merchantId: OTHER, release: 0, refund: 300 }] });
      expect(JSON.stringify(payloadFor(settled, OTHER))).not.toContain(SELLER);
      const refundRequested: EscrowEvent = { ...escrowRefundRequested, data: { ...escrowRefundRequested.data, merchantIds: [SELLER, OTHER, 'mer_1'] } } as EscrowEvent;
      const refunded = messagesOf([split, escrowFunded, escrowCancelled, refundRequested, escrowRefundCompleted]);
      expect(payloadFor(refunded, OTHER)).toMatchObject({ status: 'REFUNDED', amount: 300, allocations: [{ merchantId: OTHER, amount: 300 }], refundId: 'esc_1-refund-1' });
      expect(payloadFor(refunded, SELLER)).toMatchObject({ amount: 600.5 });
    });

    it('a sender leaves out, unbuilt, the accounts it says nothing takes; the platform is told whatever it says', () => {
      const history = [split, escrowFunded].map((e, n) => ({ ...e, id: `evt-${n}`, streamId: 'escrow-esc_1', recordedAt: RECORDED_AT, revision: BigInt(n) }));
      const asked: string[] = [];
      const tells = (party: string) => {
        asked.push(party);
        return party === OTHER;
      };
      const [[, messages]] = [...batchCallbackMessages(history, () => history, BASE_URL, undefined, tells)];
      expect(messages.map((m) => m.merchantId)).toEqual(['mer_1', OTHER]);
      expect(asked.sort()).toEqual([SELLER, OTHER].sort());
      // What is built for a party it takes is what the events API lists.
      expect(messages).toEqual(callbackMessages(history[1], history, BASE_URL).filter((m) => m.merchantId !== SELLER));
    });

    it('an escrow without account allocations tells its merchant alone, as before', () => {
      expect(messagesOf([escrowCreated(), escrowFunded]).map((m) => m.merchantId)).toEqual(['mer_1']);
    });

    it('a payee the escrow did not record as an account hears nothing, whatever its id looks like', () => {
      const recorded = escrowCreated({
        allocations: [
          { merchantId: SELLER, amount: santim(60_050), account: true },
          { merchantId: OTHER, amount: santim(40_000), account: false },
        ],
      });
      expect(messagesOf([recorded, escrowFunded]).map((m) => m.merchantId)).toEqual(['mer_1', SELLER]);
      const released: EscrowEvent = { type: 'AllocationReleased', data: { merchantId: OTHER, amount: santim(40_000), releasedAt: '2030-01-01T10:05:00.000Z' } };
      expect(messagesOf([recorded, escrowFunded, released]).map((m) => m.merchantId)).toEqual(['mer_1']);
    });

    it('an escrow created before payees were recorded as accounts tells the accounts its ids name, as it did then', () => {
      const old = escrowCreated({ allocations: split.data.allocations.map(({ account, ...terms }) => terms) });
      expect(old.data.allocations.some((a) => 'account' in a)).toBe(false);
      expect(messagesOf([old, escrowFunded]).map((m) => m.merchantId)).toEqual(['mer_1', SELLER, OTHER]);
    });

    it("an account's payout reaches its platform's endpoints too", () => {
      const requested = { ...payoutRequested, data: { ...payoutRequested.data, merchantId: SELLER, destination: { kind: 'bank', institution: '946', holderName: 'Almaz', accountMask: '••••6789', accountRef: 'r', accountFingerprint: 'f' } } };
      const paid = { ...payoutPaid, data: { ...payoutPaid.data, merchantId: SELLER } };
      const [event, history] = source('payout-po_1', [requested, paid]);
      expect(callbackMessages(event, history, BASE_URL)).toEqual([expect.objectContaining({ merchantId: SELLER, reachesPlatform: true, url: undefined })]);
    });

    it("an account's payout has one eventId at the account's endpoints and its platform's, as both events APIs list it under one id", () => {
      const requested = { ...payoutRequested, data: { ...payoutRequested.data, merchantId: SELLER, destination: { kind: 'bank', institution: '946', holderName: 'Almaz', accountMask: '••••6789', accountRef: 'r', accountFingerprint: 'f' } } };
      const paid = { ...payoutPaid, data: { ...payoutPaid.data, merchantId: SELLER } };
      const [event, history] = source('payout-po_1', [requested, paid], 'evt-po');
      const account = inMode(callbackMessages(event, history, BASE_URL)[0], true);
      const toAccount = endpointCallback(account, 'evt-po', { endpointId: 'we_acct', merchantId: SELLER, url: 'https://seller.example/hooks' });
      const toPlatform = endpointCallback(account, 'evt-po', { endpointId: 'we_platform', merchantId: 'mer_1', url: 'https://platform.example/hooks' });
      expect(toPlatform.deliveryId).not.toBe(toAccount.deliveryId);
      expect(payloadOf(toAccount).eventId).toBe(merchantEventIdFor('evt-po'));
      expect(payloadOf(toPlatform).eventId).toBe(merchantEventIdFor('evt-po'));
    });
  });

  describe('ACCOUNT_UPDATED', () => {
    const ACCOUNT = `acct_${'3'.repeat(32)}`;
    const created = {
      type: 'AccountCreated',
      data: { accountId: ACCOUNT, merchantId: 'mer_1', name: 'Almaz Tesfaye', type: 'individual', reference: 'seller-77', requestFingerprint: 'fp', createdAt: '2030-01-01T09:00:00.000Z' },
    };
    const messageOf = (history: readonly { type: string; data: unknown }[]) => {
      const [event, upTo] = source(`account-${ACCOUNT}`, history, 'evt-acc');
      return callbackMessages(event, upTo, BASE_URL);
    };

    it('tells the platform of a new payout destination, a detail changed and a status decided', () => {
      const destination = { type: 'AccountPayoutDestinationChanged', data: { accountId: ACCOUNT, merchantId: 'mer_1', version: 2, changedAt: '2030-01-01T10:00:00.000Z' } };
      const [message] = messageOf([created, destination]);
      expect(message).toMatchObject({ merchantId: 'mer_1', orderId: ACCOUNT, status: 'ACCOUNT_UPDATED' });
      expect(message.url).toBeUndefined();
      expect(message.payload).toEqual({
        billRefNo: ACCOUNT,
        status: 'ACCOUNT_UPDATED',
        timestamp: RECORDED_AT.toISOString(),
        message: `Account ${ACCOUNT} has a new payout destination: its payouts wait out the hold after a destination change`,
        merchantId: 'mer_1',
        accountId: ACCOUNT,
        accountStatus: 'PENDING_VERIFICATION',
        changed: ['payoutDestination'],
        reference: 'seller-77',
        orderId: ACCOUNT,
        deliveryId: deliveryIdFor('evt-acc'),
      });
      expectDocumented(sent(message));
      const updated = { type: 'AccountUpdated', data: { accountId: ACCOUNT, merchantId: 'mer_1', changes: { email: 'a@example.com', callbackUrl: 'https://seller.example/cb' }, updatedAt: '2030-01-01T10:00:00.000Z' } };
      expect(messageOf([created, updated])[0].payload).toMatchObject({ changed: ['email', 'callbackURL'] });
      expect(messageOf([created, updated])[0].payload).not.toHaveProperty('previousAttributes');
      const renamed = { type: 'AccountUpdated', data: { accountId: ACCOUNT, merchantId: 'mer_1', changes: { name: 'Almaz T.', callbackUrl: 'https://seller.example/cb' }, previous: { name: 'Almaz Tesfaye', callbackUrl: null }, updatedAt: '2030-01-01T10:00:00.000Z' } };
      const [renamedMessage] = messageOf([created, renamed]);
      expect(renamedMessage.payload).toMatchObject({ changed: ['name', 'callbackURL'], previousAttributes: { name: 'Almaz Tesfaye', callbackURL: null } });
      expectDocumented(sent(renamedMessage));
      const verified = { type: 'AccountVerified', data: { accountId: ACCOUNT, merchantId: 'mer_1', decidedBy: { type: 'system', id: 'sandbox' }, decidedAt: '2030-01-01T10:00:00.000Z' } };
      expect(messageOf([created, verified])[0].payload).toMatchObject({ changed: ['status'], accountStatus: 'VERIFIED' });
    });

    it("tells the platform what the operator's staff asked for, by when, and of a document uploaded", () => {
      const asked = {
        type: 'AccountInformationRequested',
        data: { accountId: ACCOUNT, merchantId: 'mer_1', requirements: [{ kind: 'identity', dueBy: '2030-01-08T10:00:00.000Z' }], decidedBy: { type: 'admin', id: 'admin' }, reason: 'blurred scan', requestedAt: '2030-01-01T10:00:00.000Z' },
      };
      const [message] = messageOf([created, asked]);
      expect(message.payload).toMatchObject({
        changed: ['requirementsDue'],
        accountStatus: 'PENDING_VERIFICATION',
        message: `The operator asks account ${ACCOUNT} for identity by 2030-01-08T10:00:00.000Z (blurred scan): past its due instant a requirement restricts the account's payouts until it arrives`,
      });
      expectDocumented(sent(message));
      const uploaded = {
        type: 'AccountDocumentUploaded',
        data: { accountId: ACCOUNT, merchantId: 'mer_1', documentId: 'doc_1', kind: 'identity', contentType: 'image/png', size: 10, sha256: 'ab', uploadedBy: { type: 'merchant', id: 'mer_1' }, uploadedAt: '2030-01-02T10:00:00.000Z' },
      };
      expect(messageOf([created, asked, uploaded])[0].payload).toMatchObject({ changed: ['documents'], message: `Document doc_1 (identity) was uploaded for account ${ACCOUNT}` });
    });

    it('tells the platform its account was closed, by whom and why: status CLOSED (issue 42, item 7)', () => {
      const closed = { type: 'AccountClosed', data: { accountId: ACCOUNT, merchantId: 'mer_1', closedBy: { type: 'merchant', id: 'mer_1' }, reason: 'left the marketplace', closedAt: '2030-01-02T10:00:00.000Z' } };
      const [message] = messageOf([created, closed]);
      expect(message).toMatchObject({ merchantId: 'mer_1', status: 'ACCOUNT_UPDATED' });
      expect(message.payload).toMatchObject({ accountStatus: 'CLOSED', changed: ['status'], message: `Account ${ACCOUNT} was closed by mer_1: left the marketplace` });
      expectDocumented(sent(message));
    });

    it("is not sent for the account's creation or a secret rotation", () => {
      expect(messageOf([created])).toEqual([]);
      expect(messageOf([created, { type: 'AccountWebhookSecretRotated', data: { accountId: ACCOUNT, merchantId: 'mer_1', rotatedAt: '' } }])).toEqual([]);
    });
  });

  describe('PAYOUT_SETTINGS_UPDATED', () => {
    const settings = (payoutDelayDays: number, hour = 9) => ({ schedule: { kind: 'daily', hour }, minimumAmount: 100_00, callbackUrl: null, payoutDelayDays });
    const changedEvent = (data: Record<string, unknown>) => ({ type: 'PayoutSettingsChanged', data: { merchantId: 'mer_1', version: 2, changedAt: '2030-01-01T10:00:00.000Z', ...data } });
    const messageOf = (merchantId: string, event: { type: string; data: unknown }) => {
      const [source_, upTo] = source(`payout-settings-${merchantId}`, [event], 'evt-set');
      return callbackMessages(source_, upTo, BASE_URL);
    };

    it('tells the merchant the settings in force and what changed from what, at its endpoints and events API only', () => {
      const [message] = messageOf('mer_1', changedEvent({ settings: settings(0, 10), previous: { schedule: { kind: 'daily', hour: 9 }, payoutDelayDays: 7 } }));
      expect(message).toMatchObject({ merchantId: 'mer_1', orderId: 'mer_1', status: 'PAYOUT_SETTINGS_UPDATED' });
      expect(message.url).toBeUndefined();
      // It would reach the merchant's platform, had it one: a merchant's account stream says it has none (endpointOwners).
      expect(message.reachesPlatform).toBe(true);
      expect(message.payload).toEqual({
        billRefNo: 'mer_1',
        status: 'PAYOUT_SETTINGS_UPDATED',
        timestamp: RECORDED_AT.toISOString(),
        message: 'Payout settings version 2: hour, payoutDelayDays changed',
        merchantId: 'mer_1',
        version: 2,
        settings: { schedule: 'daily', hour: 10, weekday: null, minimumAmount: 100, callbackURL: null, payoutDelayDays: 0, reservePercent: 0, reserveDays: 0, currency: 'ETB' },
        changed: ['hour', 'payoutDelayDays'],
        previousAttributes: { hour: 9, payoutDelayDays: 7 },
        orderId: 'mer_1',
        deliveryId: deliveryIdFor('evt-set'),
      });
      expectDocumented(sent(message));
    });

    it('reads a change recorded before the previous values were kept as it is, and reaches a seller account\'s platform', () => {
      const ACCOUNT = `acct_${'4'.repeat(32)}`;
      const [message] = messageOf(ACCOUNT, changedEvent({ merchantId: ACCOUNT, settings: settings(3) }));
      expect(message.payload).not.toHaveProperty('previousAttributes');
      expect(message.payload).toMatchObject({ message: 'Payout settings version 2', settings: { payoutDelayDays: 3 } });
      expect(message.reachesPlatform).toBe(true);
      expectDocumented(sent(message));
    });
  });

  describe('PAYOUTS_PAUSED and PAYOUTS_RESUMED', () => {
    const ACCOUNT = `acct_${'4'.repeat(32)}`;
    const messageOf = (event: { type: string; data: unknown }) => {
      const [source_, upTo] = source(`payout-settings-${ACCOUNT}`, [event], 'evt-pause');
      return callbackMessages(source_, upTo, BASE_URL);
    };

    it('tells the account and its platform why payouts stopped, and that they run again', () => {
      const [paused] = messageOf({ type: 'PayoutsPaused', data: { merchantId: ACCOUNT, reason: 'fraud review', pausedAt: '2030-01-01T10:00:00.000Z' } });
      expect(paused).toMatchObject({ merchantId: ACCOUNT, status: 'PAYOUTS_PAUSED', reachesPlatform: true, payload: { status: 'PAYOUTS_PAUSED', reason: 'fraud review', merchantId: ACCOUNT } });
      expect(paused.url).toBeUndefined();
      expectDocumented(sent(paused));
      const [resumed] = messageOf({ type: 'PayoutsResumed', data: { merchantId: ACCOUNT, resumedAt: '2030-01-01T11:00:00.000Z' } });
      expect(resumed).toMatchObject({ status: 'PAYOUTS_RESUMED', reachesPlatform: true });
      expect(resumed.payload).not.toHaveProperty('reason');
      expectDocumented(sent(resumed));
    });
  });

  describe('no callback', () => {
    it.each<[string, string, { type: string; data: unknown }[]]>([
      ['OrderPaid', 'order-ord_1', [orderCreated({ callbackUrl: undefined }), orderPaid]],
      ['OrderPaymentFailed', 'order-ord_1', [orderCreated({ callbackUrl: undefined }), orderFailed]],
      ['EscrowFunded', 'escrow-esc_1', [escrowCreated({ callbackUrl: undefined }), escrowFunded]],
      ['AllocationReleased', 'escrow-esc_1', [escrowCreated({ callbackUrl: undefined }), escrowFunded, allocationReleased]],
      ['EscrowCancelled', 'escrow-esc_1', [escrowCreated({ callbackUrl: undefined }), escrowFunded, escrowCancelled]],
    ])('%s without a callbackURL plans nothing', (_type, streamId, history) => {
      expect(plan(streamId, history)).toBeUndefined();
    });

    it.each<[string, string, { type: string; data: unknown }[]]>([
      ['OrderCreated', 'order-ord_1', [orderCreated()]],
      ['OrderRefundRequested', 'order-ord_1', [orderCreated(), orderPaid, orderRefused, orderRefundRequested]],
      ['EscrowCreated', 'escrow-esc_1', [escrowCreated()]],
      ['EscrowExpired', 'escrow-esc_1', [escrowCreated(), { type: 'EscrowExpired', data: { expiredAt: '2030-01-01T10:30:00.000Z' } }]],
      ['EscrowRefundRequested', 'escrow-esc_1', [escrowCreated(), escrowFunded, escrowCancelled, escrowRefundRequested]],
    ])('%s is not callback-worthy', (_type, streamId, history) => {
      expect(plan(streamId, history)).toBeUndefined();
    });

    it('a callback-worthy type on a stream that is neither an order nor an escrow plans nothing', () => {
      expect(plan('merchant-mer_1', [orderCreated(), orderPaid])).toBeUndefined();
    });

    it('without a callbackURL the event still has its notice, the payload the events API lists', () => {
      const [event, history] = source('escrow-esc_1', [escrowCreated({ callbackUrl: undefined }), escrowFunded, allocationReleased], 'evt-quiet');
      const notice = callbackMessage(event, history, BASE_URL);
      expect(notice).toMatchObject({ merchantId: 'mer_1', orderId: 'esc_1', merchantOrderId: 'ORDER-1', url: undefined });
      const withUrl = plan('escrow-esc_1', [escrowCreated(), escrowFunded, allocationReleased], 'evt-quiet');
      expect(inMode(notice!, false).payload).toEqual(JSON.parse(withUrl!.body));
      const [paid, paidHistory] = source('payouts-mer_1', [payoutDestination(1, '••••6789'), payoutSettings(null), payoutRequested, payoutPaid]);
      expect(callbackMessage(paid, paidHistory, BASE_URL)).toMatchObject({ url: undefined, payload: { status: 'PAYOUT_PAID' } });
      expectDocumented(sent(callbackMessage(paid, paidHistory, BASE_URL)!));
    });

    it('a payload built with an empty base URL gets the base back when served', () => {
      const [event, history] = source('order-ord_1', [orderCreated({ callbackUrl: undefined }), orderPaid]);
      const stored = callbackMessage(event, history, '')!.payload;
      expect(stored.receipt_url).toBe('/receipts/ord_1');
      const served = withPublicBaseUrl(stored, BASE_URL);
      expect(served.receipt_url).toBe(`${BASE_URL}/receipts/ord_1`);
      expect(Object.keys(served)).toEqual(Object.keys(stored));
      expect(withPublicBaseUrl(served, BASE_URL)).toEqual(served);
    });
  });

  describe('delivery ids', () => {
    it('derives the delivery id from the source event id: stable, and distinct per event', () => {
      const history = [orderCreated(), orderPaid];
      const first = plan('order-ord_1', history, 'evt-stable');
      const again = plan('order-ord_1', history, 'evt-stable');
      const other = plan('order-ord_1', history, 'evt-other');
      expect(first!.deliveryId).toMatch(/^dlv_[0-9a-f]{32}$/);
      expect(again).toEqual(first);
      expect(other!.deliveryId).not.toBe(first!.deliveryId);
      expect(deliveryIdFor('evt-stable')).toBe(first!.deliveryId);
      expect(JSON.parse(first!.body).deliveryId).toBe(first!.deliveryId);
    });

    it('plans byte-identical bodies for the same event, whichever worker plans it', () => {
      const [event] = source('escrow-esc_1', [escrowCreated(), escrowFunded], 'evt-x');
      const a = planCallback(event, [escrowCreated(), escrowFunded], BASE_URL, false);
      const b = planCallback(event, [escrowCreated(), escrowFunded], BASE_URL, false);
      expect(b!.body).toBe(a!.body);
    });
  });
});

describe('batchCallbackMessages', () => {
  it("tells each of a batch's events what callbackMessages tells it alone, streams interleaved in log order", () => {
    const histories: Record<string, readonly { type: string; data: unknown }[]> = {
      'escrow-esc_1': [escrowCreated(), escrowFunded, allocationReleased, escrowCancelled, escrowRefundRequested, escrowRefundCompleted],
      'order-ord_1': [orderCreated(), orderPaid, orderRefundRequested, orderRefundCompleted],
      'payouts-mer_1': [payoutDestination(1, '••••6789'), payoutSettings('https://merchant.example/payouts'), payoutRequested, payoutPaid],
    };
    const recorded = Object.fromEntries(
      Object.entries(histories).map(([streamId, history]) => [
        streamId,
        history.map((e, n) => ({ id: `${streamId}-${n}`, type: e.type, data: e.data, streamId, recordedAt: RECORDED_AT, revision: BigInt(n) })),
      ]),
    );
    // The batch begins after each stream's first event, and its streams take turns.
    const batch = [1, 2, 3, 4, 5].flatMap((n) => Object.values(recorded).flatMap((events) => (n < events.length ? [events[n]] : [])));
    const told = batchCallbackMessages(batch, (streamId) => recorded[streamId], BASE_URL);
    const alone = batch.filter((e) => CALLBACK_WORTHY.has(e.type)).map((e) => [e.id, callbackMessages(e, recorded[e.streamId].slice(0, Number(e.revision) + 1), BASE_URL)]);
    expect([...told].map(([e, messages]) => [e.id, messages])).toEqual(alone);
    expect(alone.length).toBeGreaterThan(5);

    // Given the states a caller folded once for all its readers, it tells the same without folding again.
    const asked: string[] = [];
    const statesAlong = (streamId: string, decider: { initialState: () => unknown; evolve: (state: never, event: never) => unknown }) => {
      asked.push(streamId);
      let state = decider.initialState();
      return recorded[streamId].map((event) => (state = decider.evolve(state as never, event as never)));
    };
    const shared = batchCallbackMessages(batch, (streamId) => recorded[streamId], BASE_URL, statesAlong);
    expect([...shared].map(([e, messages]) => [e.id, messages])).toEqual(alone);
    expect(asked.sort()).toEqual(['escrow-esc_1', 'order-ord_1']);
  });
});

it('checked a payload of every type against the schemas the API document states', () => {
  expect([...validated].sort()).toEqual([...CALLBACK_TYPES, 'TEST'].sort());
});
