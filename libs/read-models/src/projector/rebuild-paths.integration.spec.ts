import { migrate, type SqlClient } from '@app/database';
import { type EscrowCommand, type EscrowEvent, escrowDecider, fold, santim, type TransferEvent } from '@app/domain';
import { EVENT_STORE_MIGRATIONS, type LogPosition, PostgresEventStore } from '@app/event-store';
import { readReleaseLog, storeReleaseLog } from '../../../event-store/src/testing/release-log';
import { AFTER_EXPIRY, CREATED_AT, DURING_WINDOW, escrowCreated, LATER } from '../../../domain/src/testing/escrow.fixtures';
import { payableDeliveries } from '../callbacks/deliveries.reader';
import { merchantEventsView } from '../events/merchant-events.projection';
import type { Projection } from './projection';
import { CORE_PROJECTIONS } from './projections';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';
import { rebuildProjections } from './rebuild';
import { projectUpTo, READ_MODEL_DATABASES, type ReadModelDatabase, tableDefinitions } from '../testing/read-model-databases';

const ESCROWS = 60;
const OWNERS = ['platform-1', 'platform-2'];

/**
 * One escrow's life, chosen by its number: pending, released, refunded on cancel, released in part
 * then refunded, paid twice, expired after an attempt, refunded after the provider refused once.
 */
function escrowLife(i: number): EscrowEvent[] {
  const escrowId = `esc_${i}`;
  const merchantId = OWNERS[i % OWNERS.length];
  const attempt = (n: number): EscrowCommand => ({
    type: 'InitiatePayment',
    data: { attemptId: `att_${i}_${n}`, provider: 'sandbox', providerReference: `SBX-${i}-${n}`, otpRequired: false, at: DURING_WINDOW },
  });
  const pay = (n: number): EscrowCommand => ({ type: 'RecordPayment', data: { externalReferenceId: `SBX-${i}-${n}`, paymentType: 'telebirr', amount: santim(22_500), at: DURING_WINDOW } });
  const release = (m: string): EscrowCommand => ({ type: 'ReleaseFunds', data: { escrowId, merchantId, releases: [{ merchantId: m }], at: LATER } });
  const cancel: EscrowCommand = { type: 'CancelEscrow', data: { escrowId, merchantId, reason: 'test', at: LATER } };
  const created = escrowCreated({ escrowId, merchantId, orderId: `order_${i}`, requestFingerprint: `fp_${i}`, createdAt: CREATED_AT });
  const commands: EscrowCommand[][] = [
    [],
    [attempt(1), pay(1), release('m-1'), release('m-2')],
    [attempt(1), pay(1), cancel],
    [attempt(1), pay(1), release('m-1'), cancel],
    [attempt(1), pay(1), pay(2), release('m-2')],
    [attempt(1), { type: 'ExpirePayment', data: { at: AFTER_EXPIRY } }],
    [attempt(1), pay(1), cancel],
  ];
  const refusedOnce = i % commands.length === commands.length - 1;
  const events: EscrowEvent[] = [created];
  const refunds = () => (fold(escrowDecider, events).payment?.refunds ?? []).filter((r) => r.status === 'PENDING').map((r) => r.refundId);
  for (const command of commands[i % commands.length]) events.push(...escrowDecider.decide(command, fold(escrowDecider, events)));
  for (const refundId of refunds()) {
    if (refusedOnce) events.push(...escrowDecider.decide({ type: 'RecordRefundFailure', data: { refundId, reason: 'PROVIDER_DOWN', at: LATER } }, fold(escrowDecider, events)));
    const completion: EscrowCommand = { type: 'CompleteRefund', data: { refundId, externalReferenceId: `provider-${refundId}`, at: LATER } };
    events.push(...escrowDecider.decide(completion, fold(escrowDecider, events)));
  }
  return events;
}

/** Each owner's webhook endpoint, changed across the escrows' batches: the first updated and its secret rotated, the second deleted. */
const ENDPOINT_LIVES = OWNERS.map((merchantId, i) => {
  const endpointId = `we_${i}`;
  const created = { type: 'WebhookEndpointCreated', data: { endpointId, merchantId, url: `https://hooks.example/${i}`, events: ['PAYOUT_PAID'], description: null, createdAt: CREATED_AT } };
  const later =
    i === 0
      ? [
          { type: 'WebhookEndpointUpdated', data: { endpointId, merchantId, url: 'https://hooks.example/all', events: ['*'], description: 'all', disabled: true, updatedAt: LATER } },
          { type: 'WebhookEndpointSecretRotated', data: { endpointId, merchantId, rotatedAt: LATER } },
        ]
      : [{ type: 'WebhookEndpointDeleted', data: { endpointId, merchantId, deletedAt: LATER } }];
  return { streamId: `webhook-endpoint-${endpointId}`, events: [created, ...later] };
});

/** Each owner's seller accounts: one verified then restricted by a change of TIN, one rejected, one only updated. */
const ACCOUNT_LIVES = OWNERS.flatMap((merchantId, i) =>
  [0, 1, 2].map((k) => {
    const accountId = `acct_${i}_${k}`;
    const decidedBy = { type: 'admin', id: 'staff-1' };
    const created = {
      type: 'AccountCreated',
      data: { accountId, merchantId, name: `Seller ${i}.${k}`, type: 'business', tin: `00${i}${k}345678`, tradeLicenceNumber: `AA/${i}/${k}`, reference: `seller-${k}`, requestFingerprint: `fp_${accountId}`, createdAt: CREATED_AT },
    };
    const later = [
      [
        { type: 'AccountVerified', data: { accountId, merchantId, decidedBy, decidedAt: LATER } },
        { type: 'AccountUpdated', data: { accountId, merchantId, changes: { tin: '0099999999' }, updatedAt: LATER } },
        { type: 'AccountRestricted', data: { accountId, merchantId, reason: 'changed after verification: tin', restrictedAt: LATER } },
      ],
      [{ type: 'AccountRejected', data: { accountId, merchantId, decidedBy, reason: 'documents do not match', decidedAt: LATER } }],
      [{ type: 'AccountUpdated', data: { accountId, merchantId, changes: { email: `seller-${k}@example.com` }, updatedAt: LATER } }],
    ][k];
    return { streamId: `account-${accountId}`, events: [created, ...later] };
  }),
);

/** A seller account of the first platform, paid out twice: once paid, once failed. */
const PAID_SELLER = `acct_${'5'.repeat(32)}`;

/**
 * The seller's account and payouts: each payout's outcome is listed for the platform as well, which only
 * the account's stream names, so the live projector and the rebuild must both read it there.
 */
const SELLER_PAYOUT_LIVES = [
  {
    streamId: `account-${PAID_SELLER}`,
    events: [
      {
        type: 'AccountCreated',
        data: { accountId: PAID_SELLER, merchantId: OWNERS[0], name: 'Paid Seller', type: 'individual', tin: '0055555555', reference: 'paid-seller', requestFingerprint: 'fp_paid', createdAt: CREATED_AT },
      },
      { type: 'AccountVerified', data: { accountId: PAID_SELLER, merchantId: OWNERS[0], decidedBy: { type: 'admin', id: 'staff-1' }, decidedAt: CREATED_AT } },
    ],
  },
  ...['po_paid', 'po_failed'].map((payoutId) => {
    const destination = { kind: 'bank', institution: '946', holderName: 'Paid Seller', accountMask: '••••6789', accountRef: `ref_${payoutId}`, accountFingerprint: 'fp_dest' };
    const requested = { type: 'PayoutRequested', data: { merchantId: PAID_SELLER, payoutId, amount: santim(3_000), destinationVersion: 1, destination, after: null, through: '1-1', trigger: 'on-demand', requestedAt: LATER } };
    const sent = { type: 'PayoutSent', data: { merchantId: PAID_SELLER, payoutId, providerReference: `SBX-${payoutId}`, sentAt: LATER } };
    const outcome =
      payoutId === 'po_paid'
        ? { type: 'PayoutPaid', data: { merchantId: PAID_SELLER, payoutId, amount: santim(3_000), externalReferenceId: `SBX-${payoutId}`, paidAt: LATER, callbackUrl: null } }
        : { type: 'PayoutFailed', data: { merchantId: PAID_SELLER, payoutId, amount: santim(3_000), reason: 'BOUNCED', failedAt: LATER, callbackUrl: null } };
    return { streamId: `payout-${payoutId}`, events: [requested, sent, outcome] };
  }),
];

const TRANSFERS = 6;

/** The deployment's decision of the mode of what was written before modes (docs/concepts/modes.md). */
const LEGACY_DECISION = { streamId: 'deployment-modes-legacy', event: { type: 'LegacyModeDecided', data: { mode: 'test', reason: 'PAYMENT_PROVIDER=sandbox', decidedAt: LATER } } };

/** A transfer between the two platforms, given back in part twice (some of them), or not at all. */
function transferLife(j: number): TransferEvent[] {
  const transferId = `tr_${j}`;
  const [source, destination] = j % 2 === 0 ? OWNERS : [...OWNERS].reverse();
  const created: TransferEvent = {
    type: 'TransferCreated',
    data: { transferId, platformId: OWNERS[0], source, destination, amount: santim(5_000), description: `Transfer ${j}`, allowNegative: true, callbackUrl: null, createdAt: LATER },
  };
  const reversed = (n: number): TransferEvent => ({
    type: 'TransferReversed',
    data: { transferId, reversalId: `${transferId}-reversal-${n}`, platformId: OWNERS[0], source, destination, amount: santim(1_000), reversedAt: LATER, callbackUrl: null },
  });
  return j % 3 === 0 ? [created] : [created, reversed(1), reversed(2)];
}

/** Every row of every table the projections write, all columns, as canonical JSON, in one fixed order. */
async function snapshot(db: SqlClient, projections: readonly Projection[]): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const table of projections.flatMap((p) => p.tables)) {
    const rows = await db.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY to_jsonb(t)::text COLLATE "C"`);
    result[table] = rows.map((r) => r.row);
  }
  return result;
}

/** The projections' tables' indexes and key constraints, names included. */
const definitions = (db: SqlClient, schema: string, projections: readonly Projection[]) => tableDefinitions(db, schema, projections.flatMap((p) => p.tables));

/** The projections as one that knows nothing of bulk writes would be: rebuilt with applyBatch. */
const withoutBulk = (projections: readonly Projection[]): Projection[] => projections.map(({ rebuildBatch: _bulk, ...projection }) => projection);

/**
 * A rebuild writes in bulk where a projection can (rebuildBatch) and with applyBatch where it cannot:
 * both must leave exactly what the live projector left. The log has many streams, each spread over
 * several of the rebuild's small batches, so rows are written new, then merged in later batches.
 */
describe.each(READ_MODEL_DATABASES)('the bulk and the per-batch rebuild on %s', (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;
  let schema: string;
  let store: PostgresEventStore;
  let head: LogPosition;
  let events = 0;

  beforeAll(async () => {
    database = await open('paths');
    ({ client: db, schema } = database);
    await migrate(db, schema, 'event-store', EVENT_STORE_MIGRATIONS);
    await migrate(db, schema, 'read-models', READ_MODEL_MIGRATIONS);
    store = new PostgresEventStore(db, { pollIntervalMs: 10 });
    for (const [i, merchantId] of OWNERS.entries()) {
      await store.append(`merchant-${merchantId}`, [{ type: 'MerchantRegistered', data: { merchantId, name: `Merchant ${i}`, registeredAt: CREATED_AT } }], 'no_stream');
    }
    // Round robin: each stream's next event after every other stream's, so a stream spans many batches.
    const lives: { streamId: string; events: { type: string; data: unknown }[] }[] = [
      ...Array.from({ length: ESCROWS }, (_, i) => ({ streamId: `escrow-esc_${i}`, events: escrowLife(i) })),
      ...ENDPOINT_LIVES,
      ...ACCOUNT_LIVES,
      ...SELLER_PAYOUT_LIVES,
      ...Array.from({ length: TRANSFERS }, (_, j) => ({ streamId: `transfer-tr_${j}`, events: transferLife(j) })),
    ];
    for (let n = 0; lives.some((life) => n < life.events.length); n++) {
      // The owners were registered before modes: part-way through their history the deployment decides
      // its mode, and the ledger moves what it posted of them before to that mode's books, on every path.
      if (n === 4) await store.append(LEGACY_DECISION.streamId, [{ ...LEGACY_DECISION.event, metadata: {} }], 'no_stream');
      for (const life of lives) {
        if (n >= life.events.length) continue;
        head = (await store.append(life.streamId, [{ ...life.events[n], metadata: {} }], n === 0 ? 'no_stream' : BigInt(n - 1))).position;
      }
    }
    events = lives.reduce((sum, life) => sum + life.events.length, OWNERS.length + 1);
    await projectUpTo(database, store, head, 5);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('leave every table equal, row for row, to what the live projector wrote', async () => {
    const live = await snapshot(db, CORE_PROJECTIONS);
    const liveDefinitions = await definitions(db, schema, CORE_PROJECTIONS);
    // The log is one the rebuild must write new rows for, merge into rows of earlier batches, and post money from.
    expect(live.payables_view).toHaveLength(ESCROWS);
    expect(live.stream_owners).toHaveLength(ESCROWS + TRANSFERS + OWNERS.length + ENDPOINT_LIVES.length + ACCOUNT_LIVES.length + SELLER_PAYOUT_LIVES.length);
    expect(live.webhook_endpoints_view.map((row) => [JSON.parse(row).endpoint_id, JSON.parse(row).deleted, JSON.parse(row).document.disabled])).toEqual([
      ['we_0', false, true],
      ['we_1', true, false],
    ]);
    expect(live.transfers_view).toHaveLength(TRANSFERS);
    // An account's row is the account as published: its status after the review, and never the fingerprint of the request that created it.
    const accounts = live.accounts_view.map((row) => JSON.parse(row) as { account_id: string; status: string; document: Record<string, unknown> });
    expect(accounts.map((a) => [a.account_id, a.status, a.document.status]).sort()).toEqual(
      OWNERS.flatMap((_, i) => [
        [`acct_${i}_0`, 'RESTRICTED', 'RESTRICTED'],
        [`acct_${i}_1`, 'REJECTED', 'REJECTED'],
        [`acct_${i}_2`, 'PENDING_VERIFICATION', 'PENDING_VERIFICATION'],
      ]).concat([[PAID_SELLER, 'VERIFIED', 'VERIFIED']]),
    );
    expect(accounts.every((a) => !('requestFingerprint' in a.document))).toBe(true);
    expect(live.ledger_postings.filter((row) => JSON.parse(row).memo?.startsWith('Transfer from')).length).toBe(TRANSFERS + 2 * 4);
    expect(live.merchants_view).toHaveLength(OWNERS.length);
    expect(live.ledger_postings.length).toBeGreaterThan(ESCROWS);
    expect(live.ledger_entries.filter((row) => row.includes('Refund paid out')).length).toBeGreaterThan(10);
    // Every entry is the decided mode's, those posted before the decision too: on its books' accounts, none left on live's.
    expect(new Set(live.ledger_entries.map((row) => JSON.parse(row).mode))).toEqual(new Set(['test']));
    expect(live.ledger_balances.map((row) => JSON.parse(row) as { account: string; mode: string }).filter((b) => b.mode !== 'test' || /^(provider|customer|payouts):/.test(b.account))).toEqual([]);
    expect(live.ledger_postings.some((row) => JSON.parse(row).account === 'test:provider:clearing')).toBe(true);
    expect(live.provider_operations.length).toBeGreaterThan(ESCROWS / 2);
    for (const [column, value] of [['refusals', 1], ['status', 'OPEN']] as const) {
      expect(live.provider_operations.some((row) => JSON.parse(row)[column] === value)).toBe(true);
    }
    expect(live.provider_operations.some((row) => JSON.parse(row).payable_closed_at !== null)).toBe(true);
    // The events API's ids and payloads too: a rebuild must give every event the id a receiver already saw.
    const liveEvents = live.merchant_events.map((row) => JSON.parse(row) as { owner_id: string; event_id: string; type: string; payload: string });
    expect(new Set(liveEvents.map((row) => row.type))).toEqual(
      new Set(['PAID', 'RELEASED', 'CANCELLED', 'REFUNDED', 'TRANSFER_CREATED', 'TRANSFER_REVERSED', 'ACCOUNT_UPDATED', 'PAYOUT_PAID', 'PAYOUT_FAILED']),
    );
    expect(liveEvents.every((row) => /^evt_[0-9a-f]{32}$/.test(row.event_id))).toBe(true);
    // The seller's payouts: its rows and its platform's, one event each, the same id and payload.
    const payouts = liveEvents.filter((row) => row.type.startsWith('PAYOUT_'));
    expect(payouts.map((row) => [row.owner_id, row.type]).sort()).toEqual(
      [
        [OWNERS[0], 'PAYOUT_FAILED'],
        [OWNERS[0], 'PAYOUT_PAID'],
        [PAID_SELLER, 'PAYOUT_FAILED'],
        [PAID_SELLER, 'PAYOUT_PAID'],
      ].sort(),
    );
    for (const type of ['PAYOUT_PAID', 'PAYOUT_FAILED']) {
      const [a, b] = payouts.filter((row) => row.type === type);
      expect([a.event_id, a.payload]).toEqual([b.event_id, b.payload]);
    }

    const perBatch = await rebuildProjections(db, store, schema, withoutBulk(CORE_PROJECTIONS), undefined, { batchSize: 7 });
    expect(perBatch.events).toBe(events);
    expect(await snapshot(db, CORE_PROJECTIONS)).toEqual(live);
    expect(await definitions(db, schema, CORE_PROJECTIONS)).toEqual(liveDefinitions);

    const batches: number[] = [];
    const bulk = await rebuildProjections(db, store, schema, CORE_PROJECTIONS, (p) => batches.push(p.events), { batchSize: 7 });
    expect(bulk.events).toBe(events);
    expect(batches).toHaveLength(Math.ceil(events / 7));
    expect(await snapshot(db, CORE_PROJECTIONS)).toEqual(live);
    expect(await definitions(db, schema, CORE_PROJECTIONS)).toEqual(liveDefinitions);

    // Rebuilt alone, as after its version is raised: it reads the platform from the account's stream, never from another view.
    await rebuildProjections(db, store, schema, [merchantEventsView], undefined, { batchSize: 7 });
    expect(await snapshot(db, CORE_PROJECTIONS)).toEqual(live);
  });

  it('adds the keys of the tables it only appends to at its end, where a row copied twice fails it before the swap', async () => {
    const live = await snapshot(db, CORE_PROJECTIONS);
    let batches = 0;
    let copiedTwice = false;
    const twice: Projection = {
      ...merchantEventsView,
      async rebuildBatch(writer, batch, context) {
        batches += 1;
        const append: typeof writer.append = async (table, columns, rows) => {
          await writer.append(table, columns, rows);
          if (copiedTwice || rows.length === 0) return;
          copiedTwice = true;
          await writer.append(table, columns, rows.slice(0, 1));
        };
        await merchantEventsView.rebuildBatch!({ ...writer, append }, batch, context);
      },
    };
    // Copied without its key, the batch goes through; the key, added once the bulk is in, finds the row twice.
    await expect(rebuildProjections(db, store, schema, [twice], undefined, { batchSize: 7 })).rejects.toThrow(/could not create unique index "merchant_events_pkey"/);
    expect([copiedTwice, batches]).toEqual([true, Math.ceil(events / 7)]);
    expect(await snapshot(db, CORE_PROJECTIONS)).toEqual(live);
  });
});

const RELEASE_LOG = readReleaseLog();

/**
 * A projection whose version was raised is rebuilt from the log on the next start, however old the log:
 * the one an earlier release wrote (its callbacks delivered, retried, abandoned and redelivered) must
 * rebuild to what the live projector writes, in bulk and batch by batch.
 */
describe.each(READ_MODEL_DATABASES)('the log of the release of 2026-11-23, rebuilt on %s', (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;
  let schema: string;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await open('release');
    ({ client: db, schema } = database);
    await migrate(db, schema, 'event-store', EVENT_STORE_MIGRATIONS);
    await migrate(db, schema, 'read-models', READ_MODEL_MIGRATIONS);
    await storeReleaseLog(db, RELEASE_LOG);
    store = new PostgresEventStore(db, { pollIntervalMs: 10 });
    await projectUpTo(database, store, await store.head(), 5);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('rebuilds every table, the callback deliveries among them, row for row as the live projector wrote it', async () => {
    const live = await snapshot(db, CORE_PROJECTIONS);
    const deliveries = live.callback_deliveries_view.map((row) => JSON.parse(row) as { status: string; source_commit: string | null; order_id: string; merchant_id: string; document: { round: number } });
    expect(deliveries).toHaveLength(new Set(RELEASE_LOG.filter((e) => e.stream_id.startsWith('callback-')).map((e) => e.stream_id)).size);
    expect(new Set(deliveries.map((d) => d.status))).toEqual(new Set(['DELIVERED', 'ABANDONED']));
    expect(deliveries.some((d) => d.document.round > 0)).toBe(true);
    // That release recorded no source event's place in the log: an order's deliveries are listed in the order they were made.
    expect(deliveries.every((d) => d.source_commit === null)).toBe(true);
    const { order_id, merchant_id } = deliveries.find((d) => deliveries.filter((o) => o.order_id === d.order_id).length > 1)!;
    const listed = (await payableDeliveries(db, merchant_id, order_id)).map((d) => d.createdAt.getTime());
    expect(listed.length).toBeGreaterThan(1);
    expect(listed).toEqual([...listed].sort((x, y) => x - y));

    await rebuildProjections(db, store, schema, withoutBulk(CORE_PROJECTIONS), undefined, { batchSize: 7 });
    expect(await snapshot(db, CORE_PROJECTIONS)).toEqual(live);
    await rebuildProjections(db, store, schema, CORE_PROJECTIONS, undefined, { batchSize: 7 });
    expect(await snapshot(db, CORE_PROJECTIONS)).toEqual(live);
  });
});
