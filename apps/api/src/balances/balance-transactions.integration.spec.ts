import fc from 'fast-check';
import { payoutAccounts } from '@app/audit';
import type { SqlClient } from '@app/database';
import {
  type EscrowCommand,
  escrowDecider,
  type EscrowEvent,
  fold,
  recoveredBy,
  santim,
  streams,
  type TransferCommand,
  transferDecider,
  type TransferEvent,
} from '@app/domain';
import { formatPosition, type LogPosition, PostgresEventStore } from '@app/event-store';
import {
  type BalanceTransaction,
  balanceTransactionsPage,
  BALANCE_TRANSACTION_TYPES,
  dailyActivity,
  merchantBalance,
  merchantPayout,
  ownerBalances,
  payableAvailableAt,
  payoutPaidAmounts,
  payoutsPage,
  totalHeld,
  VOLUME_TYPES,
} from '@app/read-models';
import { escrowCreated } from '../../../../libs/domain/src/testing/escrow.fixtures';
import { logAndViews, projectUpTo, READ_MODEL_DATABASES, type ReadModelDatabase } from '../../../../libs/read-models/src/testing/read-model-databases';
import { decideAndAppend, type TestDecider } from '../../../../libs/read-models/src/testing/decided-appends';

/**
 * A step of a marketplace's money: merchant 0 is the platform that creates every escrow and earns its
 * fees, 1 and 2 its sellers. Indices pick among what exists (modulo); the rules refuse the rest, as
 * they would the platform. A seller's settings set a holding period and a rolling reserve for the
 * credits after them; a payout is decided `daysLater` days after the one before (the credits are all
 * of today), so it pays what those rules let go by then: a credit split by them is paid by two payouts
 * or more.
 */
type Step =
  | { kind: 'escrow'; allocations: { merchant: number; amount: number; feePercent: number }[] }
  | { kind: 'release'; escrow: number; merchant: number }
  | { kind: 'reverse'; escrow: number; merchant: number; amount: number | null; refundFee: boolean }
  | { kind: 'transfer'; seller: number; amount: number; penalty: boolean }
  | { kind: 'reverseTransfer'; transfer: number }
  | { kind: 'settings'; seller: number; payoutDelayDays: number; reserve: { reservePercent: number; reserveDays: number } }
  | { kind: 'payout'; merchant: number; daysLater: number };

const MERCHANTS = 3;
const aMerchant = fc.integer({ min: 0, max: MERCHANTS - 1 });
const anIndex = fc.nat({ max: 20 });
const aStep: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('escrow' as const),
      allocations: fc.uniqueArray(fc.record({ merchant: aMerchant, amount: fc.integer({ min: 1, max: 100_000 }), feePercent: fc.constantFrom(0, 10, 15) }), {
        minLength: 1,
        maxLength: 3,
        selector: (a) => a.merchant,
      }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('release' as const), escrow: anIndex, merchant: aMerchant }), weight: 4 },
  {
    arbitrary: fc.record({ kind: fc.constant('reverse' as const), escrow: anIndex, merchant: aMerchant, amount: fc.option(fc.integer({ min: 1, max: 60_000 })), refundFee: fc.boolean() }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('transfer' as const), seller: fc.integer({ min: 1, max: 2 }), amount: fc.integer({ min: 1, max: 50_000 }), penalty: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('reverseTransfer' as const), transfer: anIndex }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('settings' as const),
      seller: fc.integer({ min: 1, max: 2 }),
      payoutDelayDays: fc.constantFrom(0, 1, 2),
      reserve: fc.constantFrom({ reservePercent: 0, reserveDays: 0 }, { reservePercent: 10, reserveDays: 3 }, { reservePercent: 33, reserveDays: 1 }, { reservePercent: 50, reserveDays: 4 }),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('payout' as const), merchant: aMerchant, daysLater: fc.constantFrom(0, 0, 1, 2, 3) }), weight: 3 },
);

interface Stream<E> {
  id: string;
  history: E[];
}

/** A run's history, appended command by command as the command runner does; payouts take what the ledger says is there, as a payout's decision reads it. */
class Marketplace {
  readonly escrows: Stream<EscrowEvent>[] = [];
  readonly transfers: Stream<TransferEvent>[] = [];
  readonly payouts: { payoutId: string; merchantId: string; amount: number }[] = [];
  private readonly lastThrough = new Map<string, string>();
  private readonly settingsVersions = new Map<string, number>();
  /** The days the payouts' decisions have moved past today. */
  private days = 0;
  head: LogPosition | undefined;

  constructor(
    private readonly store: PostgresEventStore,
    private readonly database: ReadModelDatabase,
    readonly run: string,
  ) {}

  merchant(index: number): string {
    return `${this.run}-m${index}`;
  }

  async apply(step: Step): Promise<void> {
    const now = new Date().toISOString();
    const platform = this.merchant(0);
    const escrow = this.escrows.length > 0 && 'escrow' in step ? this.escrows[step.escrow % this.escrows.length] : undefined;
    const allocations = (escrow && fold(escrowDecider, escrow.history).created?.allocations) ?? [];
    const allocationOf = (index: number) => (allocations.length > 0 ? allocations[index % allocations.length].merchantId : this.merchant(index));
    const onEscrow = (command: EscrowCommand) => escrow && this.decide(escrow, streams.escrow(escrow.id), command, escrowDecider);
    switch (step.kind) {
      case 'escrow': {
        const id = `esc_${this.run}_${this.escrows.length}`;
        const terms = step.allocations.map((a) => ({
          merchantId: this.merchant(a.merchant),
          amount: santim(a.amount),
          ...(a.feePercent > 0 ? { fee: santim(Math.floor((a.amount * a.feePercent) / 100)) } : {}),
        }));
        const amount = santim(terms.reduce((sum, a) => sum + a.amount, 0));
        const data = escrowCreated({
          escrowId: id,
          merchantId: platform,
          orderId: `shop-${id}`,
          requestFingerprint: `fp-${id}`,
          amount,
          allocations: terms,
          items: [{ productId: 'p-1', itemName: 'Goods', quantity: 1, unitPrice: amount }],
          createdAt: now,
          expiresAt: '2099-01-01T00:00:00.000Z',
        }).data;
        const stream = { id, history: [] };
        this.escrows.push(stream);
        await this.decide(stream, streams.escrow(id), { type: 'CreateEscrow', data }, escrowDecider);
        await this.decide(stream, streams.escrow(id), { type: 'RecordPayment', data: { externalReferenceId: `ref-${id}`, paymentType: 'telebirr', amount, at: now } }, escrowDecider);
        return;
      }
      case 'release':
        return onEscrow({ type: 'ReleaseFunds', data: { escrowId: escrow?.id ?? '', merchantId: platform, releases: [{ merchantId: allocationOf(step.merchant) }], at: now } });
      case 'reverse':
        return onEscrow({
          type: 'ReverseAllocation',
          data: {
            escrowId: escrow?.id ?? '',
            merchantId: platform,
            allocation: allocationOf(step.merchant),
            ...(step.amount === null ? {} : { amount: santim(step.amount) }),
            reason: 'returned',
            refundFee: step.refundFee,
            at: now,
          },
        });
      case 'transfer': {
        const id = `tr_${this.run}_${this.transfers.length}`;
        const seller = this.merchant(step.seller);
        const stream = { id, history: [] };
        this.transfers.push(stream);
        // What the source has is the transfers' own rule (decide-at-books.properties.spec.ts holds it); here any amount moves, a penalty below zero.
        const command: TransferCommand = {
          type: 'CreateTransfer',
          data: {
            transferId: id,
            platformId: platform,
            source: step.penalty ? seller : platform,
            destination: step.penalty ? platform : seller,
            amount: santim(step.amount),
            description: 'Delivery bonus',
            allowNegative: step.penalty,
            callbackUrl: null,
            sourceAvailable: Number.MAX_SAFE_INTEGER,
            at: now,
          },
        };
        return this.decide(stream, streams.transfer(id), command, transferDecider);
      }
      case 'reverseTransfer': {
        const transfer = this.transfers.length > 0 ? this.transfers[step.transfer % this.transfers.length] : undefined;
        return transfer && this.decide(transfer, streams.transfer(transfer.id), { type: 'ReverseTransfer', data: { transferId: transfer.id, platformId: platform, at: now, callbackUrl: null } }, transferDecider);
      }
      case 'settings': {
        const merchantId = this.merchant(step.seller);
        const version = (this.settingsVersions.get(merchantId) ?? 0) + 1;
        this.settingsVersions.set(merchantId, version);
        const settings = { schedule: { kind: 'manual' as const }, minimumAmount: santim(0), callbackUrl: null, payoutDelayDays: step.payoutDelayDays, ...step.reserve };
        const data = { merchantId, version, settings, changedAt: now, scheduleSetAt: now };
        const result = await this.store.append(streams.payoutSettings(merchantId), [{ type: 'PayoutSettingsChanged', data }], version === 1 ? 'no_stream' : BigInt(version - 2));
        this.head = result.position;
        return;
      }
      case 'payout': {
        if (!this.head) return;
        const merchantId = this.merchant(step.merchant);
        this.days += step.daysLater;
        const at = new Date(Date.now() + this.days * 86_400_000);
        await projectUpTo(this.database, this.store, this.head, 50);
        // What the decision takes: the balance less what the holding period and the reserve keep at its instant (payout-request.ts).
        const { available: balance, fees, through } = await payableAvailableAt(this.database.client, merchantId, at);
        if (balance <= 0) return;
        const payoutId = `po_${this.run}_${this.payouts.length}`;
        const result = await this.store.append(
          streams.payout(payoutId),
          [
            {
              type: 'PayoutRequested',
              data: {
                merchantId,
                payoutId,
                amount: balance,
                ...(fees !== 0 && { fees }),
                destinationVersion: 1,
                destination: { kind: 'wallet', institution: 'telebirr', holderName: 'Abebe', accountMask: '••••5678', accountRef: 'dst_1', accountFingerprint: 'f1' },
                after: this.lastThrough.get(merchantId) ?? null,
                through: formatPosition(through),
                trigger: 'on-demand',
                requestedAt: at.toISOString(),
              },
            },
          ],
          'no_stream',
        );
        this.lastThrough.set(merchantId, formatPosition(through));
        this.payouts.push({ payoutId, merchantId, amount: balance });
        this.head = result.position;
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
    if (result) this.head = result.position;
  }
}

/** Every line of the merchant's, page after page of `limit`, as a client following `hasMore` reads them. */
async function allLines(
  db: SqlClient,
  merchantId: string,
  limit: number,
  filter: { type?: (typeof BALANCE_TRANSACTION_TYPES)[number]; createdAfter?: Date; createdBefore?: Date; paidBy?: ReadonlyMap<string, number> } = {},
) {
  const lines: BalanceTransaction[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const page = await balanceTransactionsPage(db, merchantId, { limit, startingAfter, ...filter });
    if (!page) throw new Error(`cursor ${startingAfter} refused`);
    lines.push(...page.transactions);
    if (!page.hasMore) return lines;
    startingAfter = page.transactions[page.transactions.length - 1].eventId;
  }
}

/** Amounts added up by the Addis Ababa day of their instant. */
function sumByDay(amounts: [Date, number][]): Map<string, number> {
  const days = new Map<string, number>();
  for (const [at, amount] of amounts) {
    const day = new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);
    days.set(day, (days.get(day) ?? 0) + amount);
  }
  return days;
}

async function ledgerBalance(db: SqlClient, merchantId: string): Promise<number> {
  const [row] = await db.query<{ balance: string }>(`SELECT COALESCE(sum(credit - debit), 0)::text AS balance FROM ledger_balances WHERE account = ANY($1::text[])`, [[...payoutAccounts(merchantId)]]);
  return Number(row.balance);
}

describe.each(READ_MODEL_DATABASES)('balance transactions on %s', (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;
  let store: PostgresEventStore;
  let runs = 0;

  beforeAll(async () => {
    database = await open('balance_transactions');
    db = database.client;
    store = await logAndViews(database);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('lists every movement once: the nets sum to the balance, each gross less fee is its net, each payout’s lines sum to its amount, and filters select what they say', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(aStep, { minLength: 1, maxLength: 25 }), fc.integer({ min: 1, max: 4 }), fc.constantFrom(...BALANCE_TRANSACTION_TYPES), async (steps, limit, type) => {
        const market = new Marketplace(store, database, `r${++runs}`);
        for (const step of steps) await market.apply(step);
        if (!market.head) return;
        await projectUpTo(database, store, market.head, 7);

        const now = new Date();
        const listed = await ownerBalances(db, Array.from({ length: MERCHANTS }, (_, i) => market.merchant(i)), now);
        for (let i = 0; i < MERCHANTS; i++) {
          const merchantId = market.merchant(i);
          const lines = await allLines(db, merchantId, limit);
          expect(new Set(lines.map((l) => l.eventId)).size).toBe(lines.length);
          expect(lines.reduce((sum, l) => sum + l.net, 0)).toBe(await ledgerBalance(db, merchantId));
          // A list of accounts shows each one's balance as its own balance does.
          const own = await merchantBalance(db, merchantId, { now });
          const sum = lines.reduce((total, l) => total + l.net, 0);
          expect(listed.get(merchantId)).toEqual({ available: own.available, onHold: totalHeld(own.held), reserve: totalHeld(own.reserved), pending: own.pending, negative: sum < 0 });
          expect(own.available + totalHeld(own.held) + totalHeld(own.reserved)).toBe(sum);
          // Oldest first, the balance before each line says what a credit recovered.
          let balance = 0;
          for (const line of [...lines].reverse()) {
            expect(line.gross - line.fee).toBe(line.net);
            expect(line.recovered).toBe(recoveredBy(balance, line.net));
            expect(line.availableOn === null).toBe(line.net <= 0);
            balance += line.net;
          }
          for (const [earlier, later] of lines.slice(1).map((line, k) => [line, lines[k]])) expect(earlier.createdAt.getTime()).toBeLessThanOrEqual(later.createdAt.getTime());
          if (lines.length > 0) {
            // The dashboard's chart adds up the same lines by Addis Ababa day: the gross of its volume's types, and the payouts the payouts list shows, less those that failed or were canceled.
            const days = await dailyActivity(db, merchantId, lines[0].createdAt, 30);
            const volume = sumByDay(lines.filter((l) => VOLUME_TYPES.includes(l.type)).map((l) => [l.createdAt, l.gross]));
            const listedPayouts = (await payoutsPage(db, merchantId, 100))!.payouts.filter((p) => p.status !== 'FAILED' && p.status !== 'CANCELED');
            const paidOut = sumByDay(listedPayouts.map((p) => [new Date(p.requestedAt), p.amount]));
            expect(days).toEqual(days.map(({ day }) => ({ day, volume: volume.get(day) ?? 0, payouts: paidOut.get(day) ?? 0 })));
          }
          expect(await allLines(db, merchantId, limit, { type })).toEqual(lines.filter((l) => l.type === type));
          if (lines.length > 1) {
            const middle = lines[Math.floor(lines.length / 2)].createdAt;
            expect(await allLines(db, merchantId, limit, { createdAfter: middle })).toEqual(lines.filter((l) => l.createdAt >= middle));
            expect(await allLines(db, merchantId, limit, { createdBefore: middle })).toEqual(lines.filter((l) => l.createdAt < middle));
          }
        }
        // Filtered by payout, each payout's lines are what it paid: their `paid` sum to its amount, and a line split by the
        // holding period or the reserve is listed under each payout that paid a part of it, never paid more than it moved.
        const paidOf = new Map<string, number>();
        for (const payout of market.payouts) {
          const view = await merchantPayout(db, payout.payoutId, payout.merchantId);
          const lines = await allLines(db, payout.merchantId, limit, { paidBy: await payoutPaidAmounts(db, view!) });
          expect(lines.reduce((sum, l) => sum + l.paid!, 0)).toBe(payout.amount);
          for (const line of lines) {
            const key = `${payout.merchantId} ${line.eventId}`;
            paidOf.set(key, (paidOf.get(key) ?? 0) + line.paid!);
          }
        }
        for (let i = 0; i < MERCHANTS; i++) {
          for (const line of await allLines(db, market.merchant(i), 100)) {
            // One event is a line of each merchant it moves (a release and its fee): what each was paid is its own.
            const paid = paidOf.get(`${market.merchant(i)} ${line.eventId}`);
            if (paid === undefined) continue;
            // Money out is paid whole by one payout; a credit in parts that never add up to more than it.
            if (line.net <= 0) expect(paid).toBe(line.net);
            else expect(paid > 0 && paid <= line.net).toBe(true);
          }
        }
      }),
      {
        numRuns: 10,
        // Always among the runs: a seller keeping half of each credit for 4 days, paid the rest at once and the reserve 4 days later.
        examples: [
          [
            [
              { kind: 'settings', seller: 1, payoutDelayDays: 0, reserve: { reservePercent: 50, reserveDays: 4 } },
              { kind: 'escrow', allocations: [{ merchant: 1, amount: 1_001, feePercent: 10 }] },
              { kind: 'release', escrow: 0, merchant: 0 },
              { kind: 'payout', merchant: 1, daysLater: 0 },
              { kind: 'payout', merchant: 1, daysLater: 4 },
            ],
            1,
            'release',
          ],
        ],
      },
    );
  });

  it('refuses a cursor that is not one of the merchant’s lines', async () => {
    expect(await balanceTransactionsPage(db, 'nobody', { limit: 10, startingAfter: 'not-an-event' })).toBeUndefined();
    expect(await balanceTransactionsPage(db, 'nobody', { limit: 10 })).toEqual({ transactions: [], hasMore: false });
  });
});
