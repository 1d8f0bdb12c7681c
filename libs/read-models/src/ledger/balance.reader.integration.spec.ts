import fc from 'fast-check';
import type { SqlClient } from '@app/database';
import {
  type EscrowCommand,
  escrowDecider,
  type EscrowEvent,
  escrowOutline,
  fold,
  type OrderCommand,
  orderDecider,
  type OrderEvent,
  santim,
  type Santim,
  streams,
} from '@app/domain';
import { type LogPosition, PostgresEventStore } from '@app/event-store';
import { escrowCreated } from '../../../domain/src/testing/escrow.fixtures';
import { merchantBalance, type MerchantBalance } from './balance.reader';
import { logAndViews, projectUpTo, READ_MODEL_DATABASES, type ReadModelDatabase } from '../testing/read-model-databases';
import { decideAndAppend, type TestDecider } from '../testing/decided-appends';

/**
 * A step of a marketplace's history; indices pick among what exists (modulo), an allocation among the
 * escrow's own, so that most steps name something; the rules refuse the rest, as they would a merchant.
 */
type Step =
  | { kind: 'escrow'; allocations: { merchant: number; amount: number; feePercent: number }[]; paid: boolean }
  | { kind: 'pay'; escrow: number }
  | { kind: 'release'; escrow: number; merchant: number; amount: number | null }
  | { kind: 'refund'; escrow: number; merchant: number; amount: number | null }
  | { kind: 'dispute'; escrow: number; merchant: number | null }
  | { kind: 'resolve'; escrow: number; releaseShare: number }
  | { kind: 'completeRefund'; escrow: number }
  | { kind: 'order'; merchant: number; amount: number; feePercent: number; paid: boolean }
  | { kind: 'refundOrder'; order: number; amount: number | null };

const at = (minutes: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + minutes * 60_000);

/** Merchant 0 is the platform that creates every escrow (and may take an allocation of its own); 1 to 3 are its sellers. */
const MERCHANTS = 4;
const aMerchant = fc.integer({ min: 0, max: MERCHANTS - 1 });
const anIndex = fc.nat({ max: 20 });
const aPart = fc.option(fc.integer({ min: 1, max: 60_000 }), { freq: 2 });

const aStep: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('escrow' as const),
      allocations: fc.uniqueArray(fc.record({ merchant: aMerchant, amount: fc.integer({ min: 1, max: 100_000 }), feePercent: fc.constantFrom(0, 0, 10, 15) }), {
        minLength: 1,
        maxLength: 3,
        selector: (a) => a.merchant,
      }),
      paid: fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('pay' as const), escrow: anIndex }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('release' as const), escrow: anIndex, merchant: aMerchant, amount: aPart }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('refund' as const), escrow: anIndex, merchant: aMerchant, amount: aPart }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('dispute' as const), escrow: anIndex, merchant: fc.option(aMerchant) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('resolve' as const), escrow: anIndex, releaseShare: fc.double({ min: 0, max: 1, noNaN: true }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('completeRefund' as const), escrow: anIndex }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('order' as const), merchant: aMerchant, amount: fc.integer({ min: 1, max: 100_000 }), feePercent: fc.constantFrom(0, 5), paid: fc.boolean() }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('refundOrder' as const), order: anIndex, amount: aPart }), weight: 1 },
);

const pay = (id: string, amount: Santim, at: string): EscrowCommand => ({ type: 'RecordPayment', data: { externalReferenceId: `ref-${id}`, paymentType: 'telebirr', amount, at } });

interface Stream<E> {
  id: string;
  history: E[];
}

/** What each merchant's allocations held and had frozen after an append, by the domain's own fold. */
interface Snapshot {
  at: Date;
  held: number[];
  frozen: number[];
}

/**
 * A run's history, appended command by command as the command runner does (decide on the folded
 * history; a refusal appends nothing), with the model's holdings after each append.
 */
class Marketplace {
  readonly escrows: Stream<EscrowEvent>[] = [];
  readonly orders: Stream<OrderEvent>[] = [];
  readonly snapshots: Snapshot[] = [];
  head: LogPosition | undefined;

  constructor(
    private readonly store: PostgresEventStore,
    readonly run: string,
  ) {}

  merchant(index: number): string {
    return `${this.run}-m${index}`;
  }

  async apply(step: Step): Promise<void> {
    const now = new Date().toISOString();
    const escrow = this.escrows.length > 0 && 'escrow' in step ? this.escrows[step.escrow % this.escrows.length] : undefined;
    const state = escrow && fold(escrowDecider, escrow.history);
    const creator = this.merchant(0);
    const allocations = state?.created?.allocations ?? [];
    const allocationOf = (index: number) => (allocations.length > 0 ? allocations[index % allocations.length].merchantId : this.merchant(index));
    const onEscrow = (command: EscrowCommand) => escrow && this.decide(escrow, streams.escrow(escrow.id), command, escrowDecider);
    switch (step.kind) {
      case 'escrow': {
        const id = `esc_${this.run}_${this.escrows.length}`;
        const allocations = step.allocations.map((a) => ({
          merchantId: this.merchant(a.merchant),
          amount: santim(a.amount),
          ...(a.feePercent > 0 ? { fee: santim(Math.floor((a.amount * a.feePercent) / 100)) } : {}),
        }));
        const amount = santim(allocations.reduce((sum, a) => sum + a.amount, 0));
        const data = escrowCreated({
          escrowId: id,
          merchantId: creator,
          orderId: `shop-${id}`,
          requestFingerprint: `fp-${id}`,
          amount,
          allocations,
          items: [{ productId: 'p-1', itemName: 'Goods', quantity: 1, unitPrice: amount }],
          createdAt: now,
          expiresAt: '2099-01-01T00:00:00.000Z',
        }).data;
        const stream = { id, history: [] };
        this.escrows.push(stream);
        await this.decide(stream, streams.escrow(id), { type: 'CreateEscrow', data }, escrowDecider);
        if (step.paid) await this.decide(stream, streams.escrow(id), pay(id, amount, now), escrowDecider);
        return;
      }
      case 'pay':
        return onEscrow(pay(escrow?.id ?? '', state?.created?.amount ?? santim(1), now));
      case 'release':
      case 'refund': {
        const part = [{ merchantId: allocationOf(step.merchant), amount: step.amount === null ? undefined : santim(step.amount) }];
        const id = escrow?.id ?? '';
        return onEscrow(
          step.kind === 'release'
            ? { type: 'ReleaseFunds', data: { escrowId: id, merchantId: creator, releases: part, at: now } }
            : { type: 'RefundFunds', data: { escrowId: id, merchantId: creator, refunds: part, note: 'could not deliver', at: now } },
        );
      }
      case 'dispute':
        return onEscrow({
          type: 'OpenDispute',
          data: { escrowId: escrow?.id ?? '', merchantId: creator, ...(step.merchant === null ? {} : { allocation: allocationOf(step.merchant) }), reason: 'not delivered', at: now },
        });
      case 'resolve': {
        const disputed = state?.allocations.find((a) => a.status === 'DISPUTED');
        if (!disputed) return;
        const release = Math.floor(disputed.frozen * step.releaseShare);
        const resolutions = [{ merchantId: disputed.merchantId, release: santim(release), refund: santim(disputed.frozen - release) }];
        return onEscrow({ type: 'ResolveDispute', data: { escrowId: escrow?.id ?? '', merchantId: creator, resolutions, at: now } });
      }
      case 'completeRefund': {
        const refund = state?.refunds[state.refunds.length - 1];
        return refund && onEscrow({ type: 'CompleteRefund', data: { refundId: refund.refundId, externalReferenceId: `done-${refund.refundId}`, at: now } });
      }
      case 'order': {
        const id = `ord_${this.run}_${this.orders.length}`;
        const amount = santim(step.amount);
        const stream = { id, history: [] };
        this.orders.push(stream);
        await this.decide(
          stream,
          streams.order(id),
          {
            type: 'CreateOrder',
            data: {
              orderId: id,
              merchantId: this.merchant(step.merchant),
              amount,
              currency: 'ETB',
              description: 'Goods',
              customer: { id: 'c-1', name: 'Abebe Kebede', phone: '+251911234567' },
              items: [{ itemName: 'Goods', quantity: 1, unitPrice: amount }],
              expiresAt: '2099-01-01T00:00:00.000Z',
              createdAt: now,
              ...(step.feePercent > 0 ? { fee: santim(Math.floor((step.amount * step.feePercent) / 100)) } : {}),
            },
          },
          orderDecider,
        );
        if (step.paid) await this.decide(stream, streams.order(id), { type: 'RecordPayment', data: { externalReferenceId: `ref-${id}`, paymentType: 'telebirr', amount, at: now } }, orderDecider);
        return;
      }
      case 'refundOrder': {
        const order = this.orders.length > 0 ? this.orders[step.order % this.orders.length] : undefined;
        const created = order?.history[0]?.data as { merchantId: string } | undefined;
        if (!order || !created) return;
        const command: OrderCommand = {
          type: 'RefundPayment',
          data: { orderId: order.id, merchantId: created.merchantId, amount: step.amount === null ? undefined : santim(step.amount), note: 'returned', at: now },
        };
        return this.decide(order, streams.order(order.id), command, orderDecider);
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
    this.head = result.position;
    this.snapshots.push({ at: result.events[result.events.length - 1].recordedAt, ...this.holdings() });
  }

  private holdings(): Omit<Snapshot, 'at'> {
    const held = Array<number>(MERCHANTS).fill(0);
    const frozen = Array<number>(MERCHANTS).fill(0);
    for (const stream of this.escrows) {
      const escrow = escrowOutline(fold(escrowDecider, stream.history));
      for (const allocation of escrow?.allocations ?? []) {
        const index = Number(allocation.merchantId.slice(allocation.merchantId.lastIndexOf('-m') + 2));
        held[index] += allocation.held;
        frozen[index] += allocation.frozen;
      }
    }
    return { held, frozen };
  }
}

/** Accounts' balances (credits less debits) from every posting recorded by `asOf`: the ledger summed, not its running balances. */
async function ledgerAt(db: SqlClient, accounts: readonly string[], asOf: Date | undefined): Promise<Map<string, number>> {
  const rows = await db.query<{ account: string; balance: string }>(
    `SELECT account, sum(credit - debit)::text AS balance FROM ledger_postings WHERE account = ANY($1::text[]) AND ($2::timestamptz IS NULL OR recorded_at <= $2) GROUP BY account`,
    [accounts, asOf ?? null],
  );
  return new Map(rows.map((row) => [row.account, Number(row.balance)]));
}

describe.each(READ_MODEL_DATABASES)("a merchant's balance on %s", (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;
  let store: PostgresEventStore;
  let runs = 0;

  beforeAll(async () => {
    database = await open('balances');
    db = database.client;
    store = await logAndViews(database);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('holds every figure to the ledger and the escrows, now and as of every instant of a random history', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(aStep, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 9 }), async (steps, batchSize) => {
        const market = new Marketplace(store, `r${++runs}`);
        for (const step of steps) await market.apply(step);
        if (!market.head) return;
        await projectUpTo(database, store, market.head, batchSize);

        const merchants = Array.from({ length: MERCHANTS }, (_, i) => market.merchant(i));
        const escrowAccounts = market.escrows.map((e) => `escrow:${e.id}`);
        const accounts = merchants.flatMap((m) => [`merchant:${m}:payable`, `merchant:${m}:fees`]);
        const instants = [
          new Date(market.snapshots[0].at.getTime() - 1),
          ...market.snapshots.map((s) => s.at),
          ...market.snapshots.map((s) => new Date(s.at.getTime() + 1)),
          undefined,
        ];
        for (const asOf of instants) {
          const ledger = await ledgerAt(db, [...accounts, ...escrowAccounts], asOf);
          const model = asOf ? market.snapshots.filter((s) => s.at.getTime() <= asOf.getTime()).pop() : market.snapshots[market.snapshots.length - 1];
          const balances: MerchantBalance[] = [];
          for (const [i, merchant] of merchants.entries()) {
            const balance = await merchantBalance(db, merchant, asOf ? { asOf } : { now: new Date() });
            balances.push(balance);
            // What may be paid out is the payable and fees accounts together, and fees earned the fees account's part of it, to the santim.
            expect(balance.available).toBe((ledger.get(`merchant:${merchant}:payable`) ?? 0) + (ledger.get(`merchant:${merchant}:fees`) ?? 0));
            expect(balance.feesEarned).toBe(ledger.get(`merchant:${merchant}:fees`) ?? 0);
            // Pending and frozen are what its allocations held then, by the escrows' own rules.
            expect([balance.pending, balance.frozen]).toEqual([model?.held[i] ?? 0, model?.frozen[i] ?? 0]);
            expect(balance.inTransit).toBe(0);
          }
          // Nothing created or lost: the merchants' pending and frozen money is all the escrows' accounts hold.
          const inEscrows = escrowAccounts.reduce((sum, account) => sum + (ledger.get(account) ?? 0), 0);
          expect(balances.reduce((sum, b) => sum + b.pending + b.frozen, 0)).toBe(inEscrows);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('counts in transit the payouts requested by the instant and not settled by it', async () => {
    const payout = (id: string, status: string, requested: number, news: number) =>
      db.query(`INSERT INTO payouts_view (payout_id, merchant_id, status, amount, requested_at, last_news_at, document) VALUES ($1, 'payee', $2, 1000, $3, $4, '{}')`, [
        id,
        status,
        at(requested),
        at(news),
      ]);
    await payout('po_paid', 'PAID', 10, 20);
    await payout('po_failed', 'FAILED', 12, 14);
    await payout('po_sent', 'SENT', 15, 16);
    await payout('po_requested', 'REQUESTED', 30, 30);
    await db.query(`INSERT INTO payouts_view (payout_id, merchant_id, status, amount, requested_at, last_news_at, document) VALUES ('po_else', 'someone', 'SENT', 7, $1, $1, '{}')`, [at(1)]);
    const inTransit = async (minute?: number) => (await merchantBalance(db, 'payee', minute === undefined ? { now: new Date() } : { asOf: at(minute) })).inTransit;
    expect(await inTransit()).toBe(2000);
    expect(await inTransit(9)).toBe(0);
    expect(await inTransit(13)).toBe(2000);
    expect(await inTransit(14)).toBe(1000);
    expect(await inTransit(19)).toBe(2000);
    expect(await inTransit(20)).toBe(1000);
    expect(await inTransit(30)).toBe(2000);
  });
});
