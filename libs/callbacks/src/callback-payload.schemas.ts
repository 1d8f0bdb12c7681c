import { ACCOUNT_STATUSES } from '@app/domain';

/**
 * The callback payloads callback-payloads.ts and its builders per kind make, as OpenAPI 3.0 schemas:
 * what the API document states for the callbacks an order, escrow or payout settings register and for
 * the events API's `payload`. callback-payloads.spec.ts validates every payload it plans against them, so a field
 * added to a payload and not here fails there. Closed (additionalProperties: false) for that reason.
 * Each names `eventId`, which only a webhook endpoint's delivery carries (endpointCallback): the spec
 * fixes what an order's callbackURL is sent, and that stays without it. Each says its mode,
 * `livemode`, after deliveryId (inMode in addressed-callbacks.ts).
 */

type Schema = Record<string, unknown>;

/** A callback's `status`: what the events API calls an event's type. */
export const CALLBACK_TYPES = [
  'PAID',
  'FAILED',
  'HELD',
  'REFUNDED',
  'RELEASED',
  'DISPUTED',
  'DISPUTE_RESOLVED',
  'CANCELLED',
  'PAYOUT_PAID',
  'PAYOUT_FAILED',
  'PAYOUT_CANCELED',
  'TRANSFER_CREATED',
  'TRANSFER_REVERSED',
  'ACCOUNT_UPDATED',
  'PAYOUT_SETTINGS_UPDATED',
  'PAYOUTS_PAUSED',
  'PAYOUTS_RESUMED',
] as const;
export type CallbackType = (typeof CALLBACK_TYPES)[number];

export function isCallbackType(value: string): value is CallbackType {
  return (CALLBACK_TYPES as readonly string[]).includes(value);
}

const birr = (description: string): Schema => ({ type: 'number', description: `${description}, in ETB (at most two decimals)`, example: 250.75 });
const text = (description: string, example?: string): Schema => ({ type: 'string', description, ...(example !== undefined && { example }) });

const object = (properties: Record<string, Schema>, required: readonly string[], description?: string): Schema => ({
  type: 'object',
  ...(description && { description }),
  required: [...required],
  additionalProperties: false,
  properties,
});

const head = (status: CallbackType, billRefNo: string): Record<string, Schema> => ({
  billRefNo: text(billRefNo),
  status: { type: 'string', enum: [status] },
  timestamp: { type: 'string', format: 'date-time', description: 'When the event was recorded', example: '2026-11-26T09:30:00.000Z' },
  message: text('What happened, for people'),
  merchantId: text('The merchant the order, escrow or payout belongs to'),
});
const HEAD_REQUIRED = ['billRefNo', 'status', 'timestamp', 'message', 'merchantId'];

/** On what a platform's seller account is sent of an escrow: the account whose share alone it tells. */
const SELLER = { accountId: text('The seller account this callback is for: its own share only (sent to the account, not the platform)', 'acct_3f1c2a9b8e7d6c5b4a39281706f5e4d3') };
const ORDER_REF = 'An order: its id; an escrow: the orderId the merchant gave it';

const DELIVERY_ID = text(
  'This delivery’s: the same on every retry of it, so ignore a retry by it. The events API’s payload has the one of the callbackURL’s delivery; a webhook endpoint’s delivery has its own (see eventId)',
  'dlv_3f1c2a9b8e7d6c5b4a39281706f5e4d3',
);
/** After deliveryId on every payload: the mode of the tenant it is about (docs/concepts/modes.md). */
const LIVEMODE = {
  livemode: {
    type: 'boolean',
    description: 'false: a test mode object (sent to a test tenant, signed with its whsec_test_ secret, no real money moved); true: a live one',
    example: false,
  },
};

/** After livemode, on a webhook endpoint's delivery only. */
const EVENT_ID = {
  eventId: text(
    'On a webhook endpoint’s delivery only (never on a callbackURL’s, nor in the events API’s payload): the id GET /v1/trdp/events lists this event under. The same at every endpoint and on every retry: handle each eventId once across your endpoints and the events API',
    'evt_3f1c2a9b8e7d6c5b4a39281706f5e4d3',
  ),
};

/** What every order and escrow payload ends with; the escrow's two fields only on an escrow's. */
const TAIL: Record<string, Schema> = {
  orderId: text(ORDER_REF),
  escrowId: text('The escrow (escrows only)', 'esc_01JD3C5W3Z8V3Y4X'),
  escrow_status: text('The escrow’s status right after the event (escrows only)', 'HELD'),
  metadata: { type: 'object', additionalProperties: true, description: 'The metadata given when the order or escrow was created ({} when none)' },
  deliveryId: DELIVERY_ID,
  ...LIVEMODE,
  ...EVENT_ID,
};
const TAIL_REQUIRED = ['orderId', 'metadata', 'deliveryId', 'livemode'];
const ESCROW_REQUIRED = [...TAIL_REQUIRED, 'escrowId', 'escrow_status'];

const feeSplit = {
  fee: birr('The platform fee taken from this amount (with a fee only)'),
  net: birr('This amount less the fee (with a fee only)'),
};

const allocationShare = (fields: Record<string, Schema>, required: readonly string[]): Schema => ({
  type: 'array',
  items: object({ merchantId: text('The allocation’s merchant'), ...fields }, ['merchantId', ...required]),
});

const destination = object(
  {
    kind: text('bank or wallet', 'bank'),
    institution: text('The bank or wallet provider', 'CBE'),
    holderName: text('The account holder'),
    accountNumber: text('The account number, masked', '••••6789'),
  },
  ['kind', 'institution', 'holderName', 'accountNumber'],
);

const payout = (status: CallbackType, outcome: Record<string, Schema>, description: string): Schema =>
  object(
    {
      ...head(status, 'The payout id'),
      payoutId: text('The payout', 'po_01JD3C5W3Z8V3Y4X'),
      amount: birr('The payout'),
      currency: { type: 'string', enum: ['ETB'] },
      ...outcome,
      destination,
      orderId: text('The payout id again'),
      deliveryId: DELIVERY_ID,
      ...LIVEMODE,
      ...EVENT_ID,
    },
    [...HEAD_REQUIRED, 'payoutId', 'amount', 'currency', ...Object.keys(outcome), 'destination', 'orderId', 'deliveryId', 'livemode'],
    description,
  );

const pause = (status: CallbackType, extra: Record<string, Schema>, description: string): Schema =>
  object(
    {
      billRefNo: text('The merchant (or seller account) whose payouts they are'),
      status: { type: 'string', enum: [status] },
      timestamp: { type: 'string', format: 'date-time', description: 'When it was recorded', example: '2026-11-26T09:30:00.000Z' },
      message: text('What happened, for people'),
      merchantId: text('The merchant (or seller account) whose payouts they are'),
      ...extra,
      orderId: text('The merchant again, where the others name their order'),
      deliveryId: DELIVERY_ID,
      ...LIVEMODE,
      ...EVENT_ID,
    },
    ['billRefNo', 'status', 'timestamp', 'message', 'merchantId', ...Object.keys(extra), 'orderId', 'deliveryId', 'livemode'],
    description,
  );

const transfer = (status: CallbackType, extra: Record<string, Schema>, description: string): Schema =>
  object(
    {
      ...head(status, 'The transfer id'),
      transferId: text('The transfer', 'tr_3f1c2a9b8e7d6c5b4a39281706f5e4d3'),
      direction: { type: 'string', enum: ['to', 'from'], description: 'to: the platform paid the other party; from: the other party paid the platform' },
      source: text('Whose available money it moved'),
      destination: text('Who received it'),
      amount: birr('Moved by this event'),
      currency: { type: 'string', enum: ['ETB'] },
      description: text('What the platform said it is for'),
      ...extra,
      metadata: { type: 'object', additionalProperties: true, description: 'The metadata given when the transfer was made ({} when none)' },
      belongsTo: object(
        {
          escrowId: { type: 'string', nullable: true, description: 'The escrow the transfer belongs to, as its request named it (escrowId); null when none', example: 'esc_3f1c2a9b8e7d6c5b4a39281706f5e4d3' },
          orderId: { type: 'string', nullable: true, description: 'The payment order the transfer belongs to, as its request named it (orderId); null when none', example: null },
        },
        ['escrowId', 'orderId'],
        'What the transfer belongs to (its escrowId or orderId; here, not at the top, because a callback’s top-level orderId names the transfer itself)',
      ),
      orderId: text('The transfer id again'),
      deliveryId: DELIVERY_ID,
      ...LIVEMODE,
      ...EVENT_ID,
    },
    [...HEAD_REQUIRED, 'transferId', 'direction', 'source', 'destination', 'amount', 'currency', 'description', ...Object.keys(extra), 'metadata', 'belongsTo', 'orderId', 'deliveryId', 'livemode'],
    description,
  );

/** Each payload by the name the document gives its schema. */
export const CALLBACK_PAYLOAD_SCHEMAS: Record<string, Schema> = {
  PaidCallback: object(
    {
      ...head('PAID', ORDER_REF),
      customerId: text('The customer the order or escrow names'),
      externalReferenceId: text('The provider’s reference of the payment'),
      amount: birr('The amount paid'),
      payment_type: text('How the customer paid', 'USSD_PUSH'),
      receipt_url: { type: 'string', format: 'uri', description: 'The payment’s receipt page' },
      ...feeSplit,
      ...TAIL,
    },
    [...HEAD_REQUIRED, 'customerId', 'externalReferenceId', 'amount', 'payment_type', 'receipt_url', ...TAIL_REQUIRED],
    'An order was paid; an escrow was paid and its money is held',
  ),
  HeldCallback: object(
    {
      ...head('HELD', ORDER_REF),
      ...SELLER,
      amount: birr('The account’s allocation, now held in escrow'),
      ...feeSplit,
      ...TAIL,
    },
    [...HEAD_REQUIRED, 'accountId', 'amount', ...ESCROW_REQUIRED],
    'A seller account’s allocation is paid for and held (sent to the account: its share alone)',
  ),
  FailedCallback: object({ ...head('FAILED', ORDER_REF), ...TAIL }, [...HEAD_REQUIRED, ...TAIL_REQUIRED], 'The payment failed (the reason is in the message)'),
  RefundedCallback: object(
    {
      ...head('REFUNDED', ORDER_REF),
      externalReferenceId: text('The provider’s reference of the refund'),
      amount: birr('The amount refunded'),
      refundId: text('The refund'),
      ...feeSplit,
      allocations: allocationShare(
        {
          amount: birr('Refunded of this allocation'),
          merchantDebited: birr('A reversal’s (money taken back after its release): the part taken from the allocation’s merchant’s balance'),
          feeReturned: birr('A reversal’s: the part the escrow’s creator gave back from its fee (with merchantDebited, the amount)'),
        },
        ['amount'],
      ),
      merchantDebited: birr('Sent to a seller account, after a reversal: what its balance gave of the amount'),
      feeReturned: birr('Sent to a seller account, after a reversal: what the platform gave back of its fee'),
      ...SELLER,
      ...TAIL,
    },
    [...HEAD_REQUIRED, 'externalReferenceId', 'refundId', ...TAIL_REQUIRED],
    'The provider confirmed a refund; an escrow refund asked for through /refund names its allocations',
  ),
  ReleasedCallback: object(
    {
      ...head('RELEASED', ORDER_REF),
      amount: birr('This release, gross'),
      ...feeSplit,
      automatic: { type: 'boolean', enum: [true], description: 'Present on the automatic release only' },
      allocation: object(
        {
          merchantId: text('The allocation’s merchant'),
          amount: birr('This release'),
          status: text('The allocation’s status after it', 'RELEASED'),
          allocationAmount: birr('The whole allocation'),
          held: birr('Still held after it'),
          released: birr('Released so far'),
        },
        ['merchantId', 'amount'],
      ),
      ...SELLER,
      ...TAIL,
    },
    [...HEAD_REQUIRED, 'amount', 'allocation', ...ESCROW_REQUIRED],
    'Money of an escrow allocation was released (one callback per allocation per release)',
  ),
  DisputedCallback: object(
    {
      ...head('DISPUTED', ORDER_REF),
      reason: text('Why the dispute was opened'),
      allocations: allocationShare({ frozen: birr('Frozen of this allocation') }, ['frozen']),
      ...SELLER,
      ...TAIL,
    },
    [...HEAD_REQUIRED, 'reason', 'allocations', ...ESCROW_REQUIRED],
    'A dispute froze allocations of an escrow',
  ),
  DisputeResolvedCallback: object(
    {
      ...head('DISPUTE_RESOLVED', ORDER_REF),
      allocations: allocationShare({ release: birr('Released to the allocation'), refund: birr('Refunded to the customer') }, ['release', 'refund']),
      ...SELLER,
      ...TAIL,
    },
    [...HEAD_REQUIRED, 'allocations', ...ESCROW_REQUIRED],
    'A dispute’s frozen money was split (the RELEASED and REFUNDED callbacks of the split follow)',
  ),
  CancelledCallback: object({ ...head('CANCELLED', ORDER_REF), ...TAIL }, [...HEAD_REQUIRED, ...ESCROW_REQUIRED], 'An escrow was cancelled'),
  PayoutPaidCallback: payout('PAYOUT_PAID', { providerReference: text('The provider’s reference of the transfer') }, 'A payout was paid to the destination'),
  PayoutFailedCallback: payout(
    'PAYOUT_FAILED',
    { failureReason: text('Why it failed', 'BOUNCED') },
    'A payout failed; its money is back in the payable balance, to be paid out again',
  ),
  PayoutCanceledCallback: payout('PAYOUT_CANCELED', {}, 'A payout was cancelled before it was sent to the provider; its money is back in the payable balance'),
  TestCallback: object(
    {
      billRefNo: text('The test’s id'),
      status: { type: 'string', enum: ['TEST'] },
      timestamp: { type: 'string', format: 'date-time', description: 'When the test was asked for', example: '2026-11-26T09:30:00.000Z' },
      message: text('What it is, for people'),
      merchantId: text('The merchant whose endpoint it is'),
      endpointId: text('The webhook endpoint it was sent to', 'we_01JD3C5W3Z8V3Y4X'),
      orderId: text('The test’s id again, where the others name their order'),
      deliveryId: text('This delivery', 'dlv_3f1c2a9b8e7d6c5b4a39281706f5e4d3'),
      ...LIVEMODE,
      eventId: text('The test’s id again: the events API lists no test, so GET /v1/trdp/events/{eventId} answers 404', 'evt_test_dc078808f23b11d2d6d4959e'),
    },
    ['billRefNo', 'status', 'timestamp', 'message', 'merchantId', 'endpointId', 'orderId', 'deliveryId', 'livemode', 'eventId'],
    'A signed test event POST /v1/trdp/webhook-endpoints/{id}/test sent to that endpoint alone',
  ),
  TransferCreatedCallback: transfer('TRANSFER_CREATED', {}, 'Available money moved between the platform and another party'),
  TransferReversedCallback: transfer(
    'TRANSFER_REVERSED',
    { reversalId: text('This reversal', 'tr_3f1c…-reversal-1'), reversed: birr('Reversed of the transfer in all, this reversal included') },
    'All or part of a transfer went back the other way',
  ),
  AccountUpdatedCallback: object(
    {
      billRefNo: text('The account id'),
      status: { type: 'string', enum: ['ACCOUNT_UPDATED'] },
      timestamp: { type: 'string', format: 'date-time', description: 'When the change was recorded', example: '2026-11-26T09:30:00.000Z' },
      message: text('What changed, for people'),
      merchantId: text('The platform the account belongs to'),
      accountId: SELLER.accountId,
      accountStatus: { type: 'string', enum: [...ACCOUNT_STATUSES], description: 'The account’s status after the change (CLOSED: the platform closed it, the end state)' },
      changed: {
        type: 'array',
        items: { type: 'string' },
        description:
"What changed: the details updated by name, `status` (a verification decision, a restriction (a legal detail changed on a verified account, or a requirement past its due instant), a past-due restriction lifted by its document, or the account closed), `payoutDestination` (a new destination; payouts to it wait PAYOUT_HOLD_AFTER_DESTINATION_CHANGE_HOURS), `requirementsDue` (the operator's staff asked for documents by a due instant) or `documents` (a document was uploaded)",
        example: ['payoutDestination'],
      },
      previousAttributes: {
        type: 'object',
        additionalProperties: true,
        description: 'On a change of details: each detail it changed, by its API name, with its value before (null: it had none), as Stripe’s previous_attributes. Absent on changes recorded before it was kept',
        example: { name: 'Abebe Coffee' },
      },
      reference: text('The platform’s own id for the account (when it gave one)'),
      orderId: text('The account id again, where the others name their order'),
      deliveryId: DELIVERY_ID,
      ...LIVEMODE,
      ...EVENT_ID,
    },
    ['billRefNo', 'status', 'timestamp', 'message', 'merchantId', 'accountId', 'accountStatus', 'changed', 'orderId', 'deliveryId', 'livemode'],
    'One of the platform’s accounts changed: its details, its verification status, its closing, or its payout destination (sent to the platform)',
  ),
  PayoutSettingsUpdatedCallback: object(
    {
      billRefNo: text('The merchant (or seller account) whose settings they are'),
      status: { type: 'string', enum: ['PAYOUT_SETTINGS_UPDATED'] },
      timestamp: { type: 'string', format: 'date-time', description: 'When the change was recorded', example: '2026-11-26T09:30:00.000Z' },
      message: text('What changed, for people'),
      merchantId: text('The merchant (or seller account) whose settings they are'),
      version: { type: 'integer', description: 'The version of the settings the change made', example: 3 },
      settings: object(
        {
          schedule: { type: 'string', enum: ['manual', 'daily', 'weekly'] },
          hour: { type: 'integer', nullable: true, description: 'Addis Ababa; null when manual' },
          weekday: { type: 'string', nullable: true, description: 'Null unless weekly' },
          minimumAmount: birr('No payout of less'),
          callbackURL: { type: 'string', nullable: true, description: 'Where payout callbacks go' },
          payoutDelayDays: { type: 'integer', description: 'The holding period in days' },
          reservePercent: { type: 'integer', description: 'The rolling reserve: the percentage of each credit kept for reserveDays (0: none)' },
          reserveDays: { type: 'integer', description: 'Days the rolling reserve keeps its share' },
          currency: { type: 'string', enum: ['ETB'] },
        },
        ['schedule', 'hour', 'weekday', 'minimumAmount', 'callbackURL', 'payoutDelayDays', 'reservePercent', 'reserveDays', 'currency'],
        'The settings in force after the change, as GET /v1/trdp/payout-settings names them',
      ),
      changed: { type: 'array', items: { type: 'string' }, description: 'The settings the change changed (absent on changes recorded before it was kept)', example: ['payoutDelayDays'] },
      previousAttributes: {
        type: 'object',
        additionalProperties: true,
        description: 'Each setting the change changed, with its value before, as Stripe’s previous_attributes (absent on changes recorded before it was kept)',
        example: { payoutDelayDays: 7 },
      },
      orderId: text('The merchant again, where the others name their order'),
      deliveryId: DELIVERY_ID,
      ...LIVEMODE,
      ...EVENT_ID,
    },
    ['billRefNo', 'status', 'timestamp', 'message', 'merchantId', 'version', 'settings', 'orderId', 'deliveryId', 'livemode'],
    'The payout settings changed: those in force after the change, and what changed from what (to the merchant; a seller account’s to its platform too)',
  ),
  PayoutsPausedCallback: pause('PAYOUTS_PAUSED', { reason: text('Why, as the pause said', 'fraud review') }, 'The merchant’s payouts were paused: none is paid, scheduled or asked for, until they are resumed (to the merchant; a seller account’s to its platform too)'),
  PayoutsResumedCallback: pause('PAYOUTS_RESUMED', {}, 'The merchant’s payouts were resumed: the schedule pays again and payouts may be asked for (to the merchant; a seller account’s to its platform too)'),
};

/** The payloads each registered callback URL receives, by the schema the document names them with. */
export const CALLBACK_PAYLOADS_BY_URL = {
  /** An order's callbackURL. */
  OrderCallback: ['PaidCallback', 'FailedCallback', 'RefundedCallback'],
  /** An escrow's callbackURL. */
  EscrowCallback: ['PaidCallback', 'FailedCallback', 'ReleasedCallback', 'DisputedCallback', 'DisputeResolvedCallback', 'CancelledCallback', 'RefundedCallback'],
  /** The payout settings' callbackURL: payouts' outcomes, and the transfers the merchant makes. */
  PayoutCallback: ['PayoutPaidCallback', 'PayoutFailedCallback', 'PayoutCanceledCallback', 'TransferCreatedCallback', 'TransferReversedCallback'],
  /** A seller account's callbackURL: its share of escrows, its payouts (when its payout settings name no URL of their own) and its transfers. */
  AccountCallback: [
    'HeldCallback',
    'ReleasedCallback',
    'RefundedCallback',
    'DisputedCallback',
    'DisputeResolvedCallback',
    'PayoutPaidCallback',
    'PayoutFailedCallback',
    'PayoutCanceledCallback',
    'TransferCreatedCallback',
    'TransferReversedCallback',
  ],
} as const satisfies Record<string, readonly (keyof typeof CALLBACK_PAYLOAD_SCHEMAS)[]>;
