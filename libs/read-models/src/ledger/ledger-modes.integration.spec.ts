import fc from 'fast-check';
import { booksAccountMode, BOOKS_ACCOUNTS, journalFor, refundCompletionEntry } from '@app/audit';
import type { SqlClient } from '@app/database';
import {
  type EscrowCommand,
  escrowDecider,
  type EscrowEvent,
  fold,
  type Mode,
  MODES,
  orderDecider,
  type OrderEvent,
  type RefundRequest,
  santim,
  type Santim,
  streams,
} from '@app/domain';
import { type AppendResult, comparePositions, type LogPosition, PostgresEventStore, type RecordedEvent } from '@app/event-store';
import { escrowCreated } from '../../../domain/src/testing/escrow.fixtures';
import { waitFor } from '../../../../test/support/wait';
import { ledgerProjection } from './ledger.projection';
import { LedgerReader } from './ledger.reader';
import { ProjectionProgress, readCheckpoint } from '../projector/projection-progress';
import { Projector } from '../projector/projector';
import { decideAndAppend, type TestDecider } from '../testing/decided-appends';
import { rebuildProjections } from '../projector/rebuild';
import { logAndViews, READ_MODEL_DATABASES, type ReadModelDatabase } from '../testing/read-model-databases';

/**
 * A step of a deployment's history with test and live tenants side by side: `mode` picks the tenant
 * (each mode has a platform and a seller account of it), indices pick among what exists (modulo); the
 * rules refuse the rest, as they would a merchant.
 */
type Step =
  | { kind: 'order'; mode: Mode; amount: number; paid: boolean; refund: boolean }
  | { kind: 'escrow'; mode: Mode; amount: number; paid: boolean }
  | { kind: 'release'; escrow: number; amount: number | null }
  | { kind: 'refund'; escrow: number; complete: boolean }
  | { kind: 'payout'; mode: Mode; seller: boolean; paid: boolean };

const aMode = fc.constantFrom<Mode>('test', 'live');
const anIndex = fc.nat({ max: 20 });
const aStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('order' as const), mode: aMode, amount: fc.integer({ min: 1, max: 100_000 }), paid: fc.boolean(), refund: fc.boolean() }),
  fc.record({ kind: fc.constant('escrow' as const), mode: aMode, amount: fc.integer({ min: 2, max: 100_000 }), paid: fc.boolean() }),
  fc.record({ kind: fc.constant('release' as const), escrow: anIndex, amount: fc.option(fc.integer({ min: 1, max: 60_000 })) }),
  fc.record({ kind: fc.constant('refund' as const), escrow: anIndex, complete: fc.boolean() }),
  fc.record({ kind: fc.constant('payout' as const), mode: aMode, seller: fc.boolean(), paid: fc.boolean() }),
);

interface Stream<E> {
  id: string;
  mode: Mode;
  history: E[];
}

/** A run's tenants, its history appended command by command as the command runner does, and what each entry would have posted before modes. */
class Deployment {
  readonly escrows: Stream<EscrowEvent>[] = [];
  /** Per account, credits less debits, as the ledger posted every entry before modes: one set of the books' accounts for all. */
  readonly beforeModes = new Map<string, number>();
  /** Every stream of the run, with its tenant's mode. */
  readonly modeOfStream = new Map<string, Mode>();
  head?: LogPosition;
  private payouts = 0;

  constructor(
    private readonly store: PostgresEventStore,
    readonly run: string,
  ) {}

  platform(mode: Mode): string {
    return `${this.run}_${mode}`;
  }

  seller(mode: Mode): string {
    return `acct_${this.run}_${mode}`;
  }

  async open(): Promise<void> {
    for (const mode of MODES) {
      const platform = this.platform(mode);
      await this.append(streams.merchant(platform), mode, [{ type: 'MerchantRegistered', data: { merchantId: platform, name: platform, registeredAt: new Date().toISOString(), mode } }]);
      await this.append(streams.account(this.seller(mode)), mode, [{ type: 'AccountCreated', data: { accountId: this.seller(mode), merchantId: platform } }]);
    }
  }

  async apply(step: Step): Promise<void> {
    const now = new Date().toISOString();
    const escrow = 'escrow' in step && this.escrows.length > 0 ? this.escrows[step.escrow % this.escrows.length] : undefined;
    switch (step.kind) {
      case 'order': {
        const id = `ord_${this.run}_${this.modeOfStream.size}`;
        const amount = santim(step.amount);
        const stream: Stream<OrderEvent> = { id, mode: step.mode, history: [] };
        const data = {
          orderId: id,
          merchantId: this.platform(step.mode),
          amount,
          currency: 'ETB' as const,
          description: 'Goods',
          customer: { id: 'c-1', name: 'Abebe Kebede', phone: '+251911234567' },
          items: [{ itemName: 'Goods', quantity: 1, unitPrice: amount }],
          expiresAt: '2099-01-01T00:00:00.000Z',
          createdAt: now,
        };
        await this.decide(stream, streams.order(id), { type: 'CreateOrder', data }, orderDecider);
        if (step.paid) await this.decide(stream, streams.order(id), { type: 'RecordPayment', data: { externalReferenceId: `ref-${id}`, paymentType: 'telebirr', amount, at: now } }, orderDecider);
        if (step.refund) await this.decide(stream, streams.order(id), { type: 'RefundPayment', data: { orderId: id, merchantId: data.merchantId, note: 'returned', at: now } }, orderDecider);
        return;
      }
      case 'escrow': {
        const id = `esc_${this.run}_${this.escrows.length}`;
        const amount = santim(step.amount);
        const platformShare = santim(Math.floor(step.amount / 2));
        const allocations = [
          { merchantId: this.seller(step.mode), amount: santim(step.amount - platformShare), ...(step.amount >= 20 ? { fee: santim(Math.floor((step.amount - platformShare) / 10)) } : {}) },
          ...(platformShare > 0 ? [{ merchantId: this.platform(step.mode), amount: platformShare }] : []),
        ];
        const data = escrowCreated({
          escrowId: id,
          merchantId: this.platform(step.mode),
          orderId: `shop-${id}`,
          requestFingerprint: `fp-${id}`,
          amount,
          allocations,
          items: [{ productId: 'p-1', itemName: 'Goods', quantity: 1, unitPrice: amount }],
          createdAt: now,
          expiresAt: '2099-01-01T00:00:00.000Z',
        }).data;
        const stream: Stream<EscrowEvent> = { id, mode: step.mode, history: [] };
        this.escrows.push(stream);
        await this.decide(stream, streams.escrow(id), { type: 'CreateEscrow', data }, escrowDecider);
        if (step.paid) await this.decide(stream, streams.escrow(id), { type: 'RecordPayment', data: { externalReferenceId: `ref-${id}`, paymentType: 'telebirr', amount, at: now } }, escrowDecider);
        return;
      }
      case 'release':
      case 'refund': {
        if (!escrow) return;
        const creator = this.platform(escrow.mode);
        const part = [{ merchantId: this.seller(escrow.mode), amount: step.kind === 'release' && step.amount !== null ? santim(step.amount) : undefined }];
        const command: EscrowCommand =
          step.kind === 'release'
            ? { type: 'ReleaseFunds', data: { escrowId: escrow.id, merchantId: creator, releases: part, at: now } }
            : { type: 'RefundFunds', data: { escrowId: escrow.id, merchantId: creator, refunds: part, note: 'could not deliver', at: now } };
        await this.decide(escrow, streams.escrow(escrow.id), command, escrowDecider);
        const refund = fold(escrowDecider, escrow.history).refunds.at(-1);
        if (step.kind === 'refund' && step.complete && refund) {
          await this.decide(escrow, streams.escrow(escrow.id), { type: 'CompleteRefund', data: { refundId: refund.refundId, externalReferenceId: `done-${refund.refundId}`, at: now } }, escrowDecider);
        }
        return;
      }
      case 'payout': {
        // A payout takes the party's whole payable and fees, when above zero (docs/concepts/ledger.md), and is paid or fails.
        const party = step.seller ? this.seller(step.mode) : this.platform(step.mode);
        const fees = this.beforeModes.get(`merchant:${party}:fees`) ?? 0;
        const amount = (this.beforeModes.get(`merchant:${party}:payable`) ?? 0) + fees;
        if (amount <= 0) return;
        const payoutId = `po_${this.run}_${this.payouts++}`;
        const base = { merchantId: party, payoutId, amount: santim(amount) };
        await this.append(streams.payout(payoutId), step.mode, [
          { type: 'PayoutRequested', data: { ...base, fees, requestedAt: now } },
          step.paid ? { type: 'PayoutPaid', data: { ...base, externalReferenceId: `tr-${payoutId}`, paidAt: now } } : { type: 'PayoutFailed', data: { ...base, fees, reason: 'BOUNCED', failedAt: now } },
        ]);
        return;
      }
    }
  }

  private async decide<C, E extends { type: string; data: unknown }, S>(
    stream: Stream<E>,
    streamId: string,
    command: C,
    decider: TestDecider<C, E, S>,
  ): Promise<void> {
    const result = await decideAndAppend(this.store, stream, streamId, command, decider);
    if (!result) return;
    this.modeOfStream.set(streamId, stream.mode);
    this.head = result.position;
    for (const event of await this.written(streamId, result)) this.postBeforeModes(event, stream.history);
  }

  private async append(streamId: string, mode: Mode, events: { type: string; data: Record<string, unknown> }[]): Promise<void> {
    const result = await this.store.append(streamId, events, 'no_stream');
    this.modeOfStream.set(streamId, mode);
    this.head = result.position;
    for (const event of await this.written(streamId, result)) this.postBeforeModes(event, []);
  }

  /** The events an append wrote, as the store records them (an append reports where they landed, not what they hold). */
  private async written(streamId: string, result: AppendResult): Promise<RecordedEvent[]> {
    return (await this.store.readStream(streamId)).slice(Number(result.events[0].revision), Number(result.nextRevision) + 1);
  }

  /** What the ledger posted before modes: every entry to the one set of the books' accounts (their live names). */
  private postBeforeModes(event: RecordedEvent, history: readonly { type: string; data: unknown }[]): void {
    const data = event.data as Record<string, unknown>;
    const creation = history[0]?.data as { merchantId?: string; fee?: Santim } | undefined;
    const context = { id: event.streamId.slice(event.streamId.indexOf('-') + 1), creatorMerchantId: creation?.merchantId, orderFee: creation?.fee, mode: 'live' as const };
    const requested = history.find((e) => e.type.endsWith('RefundRequested') && (e.data as RefundRequest).refundId === data.refundId)?.data as RefundRequest | undefined;
    const entry = event.type.endsWith('RefundCompleted') ? refundCompletionEntry(requested!.amount, 'live') : journalFor(event.type, data, context);
    for (const line of entry?.lines ?? []) this.beforeModes.set(line.account, (this.beforeModes.get(line.account) ?? 0) + line.credit - line.debit);
  }
}

/** The live projector, the ledger alone, until it has applied the log up to `head`. */
async function projectUpTo(db: ReadModelDatabase, store: PostgresEventStore, head: LogPosition, batchSize: number): Promise<void> {
  let failure: unknown;
  const projector = new Projector(db.client, store, [ledgerProjection], new ProjectionProgress(db.client), {
    lockName: `ledger-modes:${db.schema}`,
    schema: db.schema,
    batchSize,
    onError: (error) => (failure = error),
  });
  projector.start();
  try {
    await waitFor(async () => {
      if (failure) throw failure;
      return comparePositions(await readCheckpoint(db.client), head) >= 0;
    }, 'the projector to reach the head of the log');
  } finally {
    await projector.stop();
  }
}

const santimOf = (etb: number) => Math.round(etb * 100);

/** The name an account had before modes: the books' own accounts were one set, under live's names. */
const nameBeforeModes = (account: string) => {
  const mode = booksAccountMode(account);
  return mode ? BOOKS_ACCOUNTS.find((kind) => kind(mode) === account)!('live') : account;
};

describe.each(READ_MODEL_DATABASES)("each mode's books on %s", (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;
  let store: PostgresEventStore;
  let runs = 0;
  /** Every run's money before modes, together: the books' accounts are shared by the runs. */
  const beforeModes = new Map<string, number>();

  beforeAll(async () => {
    database = await open('ledger_modes');
    db = database.client;
    store = await logAndViews(database);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("keeps test and live money apart: each mode's trial balance is zero, no entry crosses, and together they are the books before modes", async () => {
    const ledger = new LedgerReader(db);
    await fc.assert(
      fc.asyncProperty(fc.array(aStep, { minLength: 1, maxLength: 25 }), fc.integer({ min: 1, max: 9 }), async (steps, batchSize) => {
        const deployment = new Deployment(store, `r${++runs}`);
        await deployment.open();
        for (const step of steps) await deployment.apply(step);
        for (const [account, balance] of deployment.beforeModes) beforeModes.set(account, (beforeModes.get(account) ?? 0) + balance);
        await projectUpTo(database, store, deployment.head!, batchSize);

        const merged = new Map<string, number>();
        for (const mode of MODES) {
          const trial = await ledger.trialBalance(mode);
          expect(trial.balanced).toBe(true);
          expect(trial.accounts.reduce((sum, a) => sum + santimOf(a.credit) - santimOf(a.debit), 0)).toBe(0);
          for (const a of trial.accounts) {
            // A books account is listed in its own mode's books only.
            expect(booksAccountMode(a.account) ?? mode).toBe(mode);
            const name = nameBeforeModes(a.account);
            merged.set(name, (merged.get(name) ?? 0) + santimOf(a.credit) - santimOf(a.debit));
          }
        }
        // Every line of an entry is an account of the entry's tenant's mode: no test money in a live account, nor the reverse.
        const lines = await db.query<{ stream_id: string; account: string; entry_mode: Mode; account_mode: Mode }>(
          `SELECT e.stream_id, p.account, e.mode AS entry_mode, b.mode AS account_mode
           FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.entry_id JOIN ledger_balances b ON b.account = p.account
           WHERE e.stream_id LIKE '%\\_' || $1 || '\\_%'`,
          [deployment.run],
        );
        for (const line of lines) {
          const mode = deployment.modeOfStream.get(line.stream_id);
          expect([line.stream_id, line.entry_mode, line.account_mode, booksAccountMode(line.account) ?? mode]).toEqual([line.stream_id, mode, mode, mode]);
        }
        // Added up across the modes, under the names they had, the books are what the ledger posted before modes.
        for (const [account, balance] of beforeModes) expect([account, merged.get(account) ?? 0]).toEqual([account, balance]);
        for (const [account, balance] of merged) expect([account, balance]).toEqual([account, beforeModes.get(account) ?? 0]);
      }),
      { numRuns: 12 },
    );
  });
});

describe.each(READ_MODEL_DATABASES)('the money of tenants from before modes, on %s', (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await open('ledger_legacy');
    db = database.client;
    store = await logAndViews(database);
  });

  afterAll(async () => {
    await database?.drop();
  });

  /** What an auditor reads of the ledger: each mode's accounts with their balances and every posting's running balance. */
  async function books(): Promise<unknown> {
    const ledger = new LedgerReader(db);
    const postings = await db.query(`SELECT account, entry_id, line, running_balance::text FROM ledger_postings ORDER BY account, commit_position, prepare_position, line`);
    const entries = await db.query(`SELECT entry_id, mode FROM ledger_entries ORDER BY entry_id`);
    return { test: await ledger.trialBalance('test'), live: await ledger.trialBalance('live'), postings, entries };
  }

  it("posts them to the mode the deployment decided, however the log is batched, and a rebuild writes the same", async () => {
    const at = new Date().toISOString();
    const legacy = 'mer_legacy';
    const order = 'ord_legacy';
    await store.append(streams.merchant(legacy), [{ type: 'MerchantRegistered', data: { merchantId: legacy, name: 'From before modes', registeredAt: at } }], 'no_stream');
    const created = { orderId: order, merchantId: legacy, amount: santim(5_000), currency: 'ETB' as const, description: 'Goods', customer: { id: 'c-1', name: 'Abebe Kebede', phone: '+251911234567' }, items: [{ itemName: 'Goods', quantity: 1, unitPrice: santim(5_000) }], expiresAt: '2099-01-01T00:00:00.000Z', createdAt: at };
    let history = orderDecider.decide({ type: 'CreateOrder', data: created }, fold(orderDecider, []));
    history = [...history, ...orderDecider.decide({ type: 'RecordPayment', data: { externalReferenceId: 'ref-1', paymentType: 'telebirr', amount: santim(5_000), at } }, fold(orderDecider, history))];
    await store.append(streams.order(order), history.map((e) => ({ type: e.type, data: e.data as unknown as Record<string, unknown> })), 'no_stream');
    // The decision comes after the history it decides, as the first start of the release with modes appends it.
    await store.append(streams.deploymentModes('legacy'), [{ type: 'LegacyModeDecided', data: { mode: 'test', reason: 'PAYMENT_PROVIDER=sandbox', decidedAt: at } }], 'no_stream');
    // Then a payout of the same tenant, its mode known when it is posted.
    const payout = { merchantId: legacy, payoutId: 'po_legacy', amount: santim(5_000) };
    const head = (
      await store.append(streams.payout('po_legacy'), [
        { type: 'PayoutRequested', data: { ...payout, fees: 0, requestedAt: at } },
        { type: 'PayoutPaid', data: { ...payout, externalReferenceId: 'tr-1', paidAt: at } },
      ], 'no_stream')
    ).position;

    const seen: unknown[] = [];
    for (const batchSize of [1, 2, 100]) {
      await db.query('TRUNCATE ledger_entries, ledger_postings, ledger_balances, ledger_tenant_modes, projection_checkpoints');
      await projectUpTo(database, store, head, batchSize);
      seen.push(await books());
    }
    await rebuildProjections(db, store, database.schema, [ledgerProjection]);
    seen.push(await books());

    const [first] = seen as { test: { accounts: { account: string; balance: number }[] }; live: { accounts: unknown[] } }[];
    expect(first.live.accounts).toEqual([]);
    expect(first.test.accounts.map((a) => [a.account, a.balance])).toEqual([
      ['merchant:mer_legacy:payable', 0],
      ['test:payouts:in-transit', 0],
      ['test:provider:clearing', 0],
    ]);
    for (const other of seen.slice(1)) expect(other).toEqual(seen[0]);
  });
});

describe.each(READ_MODEL_DATABASES)('running balances of postings dated out of log order, on %s', (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await open('ledger_order');
    db = database.client;
    store = await logAndViews(database);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('a rebuild, batch by batch, writes the running balances the live projector settled', async () => {
    const merchantId = 'mer_clock';
    const registeredAt = '2030-01-01T00:00:00.000Z';
    await store.append(streams.merchant(merchantId), [{ type: 'MerchantRegistered', data: { merchantId, name: 'On a test clock', mode: 'test', registeredAt } }], 'no_stream');
    // Dated by a test clock (metadata.businessAt): the second payout is dated before the first, the third after both.
    let head: LogPosition | undefined;
    for (const [n, hour] of [[1, 12], [2, 6], [3, 18]] as const) {
      const payout = { merchantId, payoutId: `po_clock_${n}`, amount: santim(1_000 * n) };
      const businessAt = `2030-01-02T${String(hour).padStart(2, '0')}:00:00.000Z`;
      head = (
        await store.append(
          streams.payout(payout.payoutId),
          [
            { type: 'PayoutRequested', data: { ...payout, fees: 0, requestedAt: businessAt }, metadata: { businessAt } },
            { type: 'PayoutPaid', data: { ...payout, externalReferenceId: `tr-${n}`, paidAt: businessAt }, metadata: { businessAt } },
          ],
          'no_stream',
        )
      ).position;
    }
    const postings = () =>
      db.query<{ account: string; recorded_at: Date; running_balance: string }>(
        `SELECT account, entry_id, line, recorded_at, running_balance::text FROM ledger_postings ORDER BY account, recorded_at, commit_position, prepare_position, line`,
      );
    await projectUpTo(database, store, head!, 1);
    const live = await postings();
    // The merchant's payable runs in business time: the earliest payout first, though it was logged second.
    expect(live.filter((p) => p.account === `merchant:${merchantId}:payable`).map((p) => p.running_balance)).toEqual(['-2000', '-3000', '-6000']);

    for (const batchSize of [1, 2, 4000]) {
      await rebuildProjections(db, store, database.schema, [ledgerProjection], undefined, { batchSize });
      expect(await postings()).toEqual(live);
    }
  });
});
