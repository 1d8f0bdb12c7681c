import fc from 'fast-check';
import { decidePayoutRequest, DomainError, type PayoutDestination, type PayoutRequested, payoutsThroughOf, santim, transferBooked, transferDecider } from '@app/domain';
import { comparePositions, type EventMetadata, formatPosition, type LogPosition, parsePosition, type RecordedEvent, START, WrongExpectedRevision } from '@app/event-store';
import { CommandRunner, ConcurrentModification } from '@app/infrastructure';
import { InMemoryEventStore } from '../../../event-store/src/testing/in-memory-event-store';
import { oneCommandPerStream } from '../../../infrastructure/src/one-command-per-stream';
import { decideAtBooks } from './decide-at-books';
import type { PayoutBooksDeps } from './payout-books-deps';

const AT = '2030-01-01T10:00:00.000Z';
const METADATA: EventMetadata = { correlationId: 'c', causationId: 'c' };
const wallet: PayoutDestination = { kind: 'wallet', institution: 'telebirr', holderName: 'Abebe', accountMask: '••••5678', accountRef: 'dst_1', accountFingerprint: 'f1' };

type Account = 'payable' | 'fees';

type Step =
  /** A release or a fee earned, or (negative) an order refunded or a reversal's fee given back: appended beside the decisions, never through the books. */
  | { kind: 'movement'; account: Account; amount: number }
  /** A payout asked for on demand, in one of two processes: of everything available, or of a chosen amount of it. */
  | { kind: 'payout'; process: 0 | 1; amount?: number }
  /** A transfer out of the merchant's money, in one of two processes. */
  | { kind: 'transfer'; process: 0 | 1; amount: number }
  /** The provider's outcome of the n-th payout asked for, or its cancellation before it was sent. */
  | { kind: 'paid' | 'failed' | 'canceled'; payout: number };

const anAmount = fc.oneof(fc.integer({ min: 1, max: 5_000_000 }), fc.integer({ min: -500_000, max: -1 }));
const aProcess = fc.constantFrom<0 | 1>(0, 1);
const aStep: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('movement' as const), account: fc.constantFrom<Account>('payable', 'fees'), amount: anAmount }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('payout' as const), process: aProcess, amount: fc.integer({ min: 1, max: 3_000_000 }) }, { requiredKeys: ['kind', 'process'] }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('transfer' as const), process: aProcess, amount: fc.integer({ min: 1, max: 3_000_000 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constantFrom('paid' as const, 'failed' as const, 'canceled' as const), payout: fc.nat({ max: 8 }) }), weight: 2 },
);

/** A step waits this many turns of the event loop before it starts, so that the steps of a round interleave differently from run to run. */
const aStart = fc.nat({ max: 6 });

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * Each account's balance from the log, as the ledger posts it (the ledger rules of libs/audit): a
 * movement credits its account, a payout's request takes its `fees` from the fees account and the rest
 * from the payable, its failure or cancellation gives each part back, a transfer takes from the payable.
 */
function balancesOf(log: readonly RecordedEvent[]): Record<Account, number> {
  const balances = { payable: 0, fees: 0 };
  const requested = new Map<string, { amount: number; fees: number }>();
  for (const { type, data } of log as unknown as { type: string; data: Record<string, unknown> }[]) {
    if (type === 'Moved') balances[data.account as Account] += data.amount as number;
    if (type === 'TransferCreated') balances.payable -= data.amount as number;
    if (type === 'PayoutRequested') requested.set(data.payoutId as string, { amount: data.amount as number, fees: (data.fees as number | undefined) ?? 0 });
    if (type === 'PayoutRequested' || type === 'PayoutFailed' || type === 'PayoutCanceled') {
      const { amount, fees } = requested.get(data.payoutId as string)!;
      const sign = type === 'PayoutRequested' ? -1 : 1;
      balances.payable += sign * (amount - fees);
      balances.fees += sign * fees;
    }
  }
  return balances;
}

/** What the failures and cancellations among `events` gave back to each account: each such payout's parts, to the accounts they were taken from. */
function returnedBy(events: readonly RecordedEvent[], payouts: readonly PayoutRequested['data'][]): Record<Account, number> {
  const returned = { payable: 0, fees: 0 };
  for (const event of events.filter((e) => e.type === 'PayoutFailed' || e.type === 'PayoutCanceled')) {
    const { amount, fees = 0 } = payouts.find((p) => p.payoutId === (event.data as { payoutId: string }).payoutId)!;
    returned.payable += amount - fees;
    returned.fees += fees;
  }
  return returned;
}

/** The log up to a position, as the ledger had posted it when a decision read the balance there. */
const upTo = (log: readonly RecordedEvent[], position: LogPosition) => log.filter((event) => comparePositions(event.position, position) <= 0);

describe('decideAtBooks: payouts and transfers out of one balance, decided in two processes at once', () => {
  it('refuses no command for concurrency, never spends the same money twice, pays a chosen amount exactly and leaves the rest, and chains each payout to the one before', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.tuple(aStep, aStart), { minLength: 1, maxLength: 6 }), { maxLength: 8 }), async (rounds) => {
        const store = new InMemoryEventStore();
        // The ledger is the log itself here, so it has always posted what the log holds.
        const progress = { waitFor: async () => true };
        const processes = [0, 1].map((): PayoutBooksDeps => {
          const runner = oneCommandPerStream(new CommandRunner(store));
          return { runner, store, db: undefined, progress, payoutHoldMs: 0, readYourWritesTimeoutMs: 1_000 } as unknown as PayoutBooksDeps;
        });
        /** Where each decision that appended read the balance: the log's head it was decided at. */
        const decidedAt = new Map<string, LogPosition>();
        const payoutIds: string[] = [];
        /** The amount each payout asked for chose, by its id; none: everything available. */
        const chosenAmounts = new Map<string, number>();
        const refusals: unknown[] = [];
        let next = 0;

        const balanceAt = async (head: LogPosition) => {
          const log = upTo(await store.readAll(START, 100_000), head);
          return balancesOf(log);
        };

        const payout = (deps: PayoutBooksDeps, payoutId: string, amount?: number) =>
          decideAtBooks<PayoutRequested | undefined>(
            deps,
            {
              merchantId: 'm',
              streamId: `payout-${payoutId}`,
              decided: (history) => history[0] as unknown as PayoutRequested,
              ledgerWaitMs: 1_000,
              ledgerBehind: () => new DomainError('LEDGER_BEHIND', 'the ledger is the log here', 'unavailable'),
              decide: async ({ booked, head, ledgerPosted }) => {
                await ledgerPosted;
                const { payable, fees } = await balanceAt(head);
                const after = (booked && payoutsThroughOf(booked)) ?? null;
                const ask = { merchantId: 'm', payoutId, trigger: 'on-demand' as const, at: AT, ...(amount !== undefined && { amount: santim(amount) }) };
                const requested = decidePayoutRequest(ask, { exists: false, destination: { version: 1, destination: wallet, paused: false }, balance: payable + fees, fees, after, through: formatPosition(head) })!;
                decidedAt.set(`payout-${payoutId}`, head);
                return { result: requested, events: [requested], booked: { type: 'PayoutBooked', data: { merchantId: 'm', payoutId, through: requested.data.through } } };
              },
            },
            METADATA,
          );

        const transfer = (deps: PayoutBooksDeps, transferId: string, amount: number) =>
          decideAtBooks(
            deps,
            {
              merchantId: 'm',
              streamId: `transfer-${transferId}`,
              decided: () => undefined,
              ledgerWaitMs: 1_000,
              ledgerBehind: () => new DomainError('LEDGER_BEHIND', 'the ledger is the log here', 'unavailable'),
              decide: async ({ booked, head, ledgerPosted }) => {
                await ledgerPosted;
                const { payable, fees } = await balanceAt(head);
                const terms = { transferId, platformId: 'm', source: 'm', destination: 'acct_1', amount: santim(amount), description: 'bonus', allowNegative: false, callbackUrl: null };
                const events = transferDecider.decide({ type: 'CreateTransfer', data: { ...terms, sourceAvailable: payable + fees, at: AT } }, transferDecider.initialState());
                decidedAt.set(`transfer-${transferId}`, head);
                return { result: undefined, events, booked: transferBooked('m', transferId, booked) };
              },
            },
            METADATA,
          );

        const run = async (step: Step) => {
          if (step.kind === 'movement') await store.append('movements-m', [{ type: 'Moved', data: step, metadata: METADATA }], 'any');
          if (step.kind === 'payout') {
            const payoutId = `po_${next++}`;
            payoutIds.push(payoutId);
            if (step.amount !== undefined) chosenAmounts.set(payoutId, step.amount);
            await payout(processes[step.process], payoutId, step.amount);
          }
          if (step.kind === 'transfer') await transfer(processes[step.process], `tr_${next++}`, step.amount);
          if (step.kind === 'paid' || step.kind === 'failed' || step.kind === 'canceled') {
            const streamId = `payout-${payoutIds[step.payout]}`;
            const history = await store.readStream(streamId);
            if (history.length !== 1) return;
            const type = { paid: 'PayoutPaid', failed: 'PayoutFailed', canceled: 'PayoutCanceled' }[step.kind];
            // The provider's outcome, not a command under test: two outcomes of one payout in a round race for its
            // stream, and the one appended second finds the payout ended already, as the check above would.
            await store.append(streamId, [{ type, data: { payoutId: payoutIds[step.payout] }, metadata: METADATA }], history[0].revision).catch((error: unknown) => {
              if (!(error instanceof WrongExpectedRevision)) throw error;
            });
          }
        };

        for (const round of rounds) {
          await Promise.all(
            round.map(([step, start]) =>
              turns(start)
                .then(() => run(step))
                .catch((refusal: unknown) => void refusals.push(refusal)),
            ),
          );
        }

        // Only a command that no longer fits is refused, with its own code; none for the books moving under it.
        for (const refusal of refusals) {
          expect(refusal).toBeInstanceOf(DomainError);
          expect(refusal).not.toBeInstanceOf(ConcurrentModification);
        }
        const log = await store.readAll(START, 100_000);
        const outs = log.filter((e) => e.type === 'PayoutRequested' || e.type === 'TransferCreated');
        for (const out of outs) {
          const head = decidedAt.get(out.streamId)!;
          // No two spend the same money: between the balance a decision read and its own append, no other money left.
          expect(outs.filter((other) => comparePositions(other.position, head) > 0 && comparePositions(other.position, out.position) < 0)).toEqual([]);
          // And what it took was there: the balance it read, less what it took, is not below zero.
          const { payable, fees } = balancesOf([...upTo(log, head), out]);
          expect(payable + fees).toBeGreaterThanOrEqual(0);
        }
        const payouts = log.filter((e) => e.type === 'PayoutRequested').map((e) => e.data as unknown as PayoutRequested['data']);
        /** Per account, what the payouts so far left of their ranges: a chosen amount leaves the rest for the next payout. */
        const left = { payable: 0, fees: 0 };
        payouts.forEach((requested, i) => {
          expect(requested.amount).toBeGreaterThan(0);
          // Ranges follow one another, transfers booked between them or not: nothing is in two payouts' ranges, nothing between them is in none.
          expect(requested.after).toBe(i === 0 ? null : payouts[i - 1].through);
          // Per account: the range's movements (transfers out of the payable among them), what failed and cancelled payouts returned into it, and what earlier payouts left.
          const after = requested.after ? parsePosition(requested.after)! : START;
          const range = log.filter((e) => comparePositions(e.position, after) > 0 && comparePositions(e.position, parsePosition(requested.through!)!) <= 0);
          const moved = balancesOf(range.filter((e) => e.type === 'Moved' || e.type === 'TransferCreated'));
          const returned = returnedBy(range, payouts);
          const there = { payable: left.payable + moved.payable + returned.payable, fees: left.fees + moved.fees + returned.fees };
          const taken = { payable: requested.amount - (requested.fees ?? 0), fees: requested.fees ?? 0 };
          const chosen = chosenAmounts.get(requested.payoutId);
          if (chosen === undefined) {
            // Everything available: all of it, what earlier payouts left included.
            expect(taken).toEqual(there);
          } else {
            // A chosen amount: exactly that, neither part more than its account held (a fees balance below zero settled whole), the rest left for the next.
            expect(requested.amount).toBe(chosen);
            expect(taken.fees).toBeLessThanOrEqual(Math.max(there.fees, 0));
            expect(taken.payable).toBeLessThanOrEqual(Math.max(there.payable, 0));
          }
          left.payable = there.payable - taken.payable;
          left.fees = there.fees - taken.fees;
        });
        // Nothing created or lost, nothing paid twice, chosen amounts or not: what payouts still standing (neither failed nor cancelled) hold is what the movements brought, less what was transferred and what is left.
        const sum = (type: string, pick: (data: Record<string, unknown>) => number) =>
          log.filter((e) => e.type === type).reduce((total, e) => total + pick(e.data as Record<string, unknown>), 0);
        const failed = new Set(log.filter((e) => e.type === 'PayoutFailed' || e.type === 'PayoutCanceled').map((e) => (e.data as { payoutId: string }).payoutId));
        const standing = payouts.filter((p) => !failed.has(p.payoutId)).reduce((total, p) => total + p.amount, 0);
        const { payable, fees } = balancesOf(log);
        expect(standing).toBe(sum('Moved', (d) => d.amount as number) - sum('TransferCreated', (d) => d.amount as number) - payable - fees);
      }),
      { numRuns: 150 },
    );
  });
});
