import fc from 'fast-check';
import { DomainError } from '../shared/domain-error';
import { santim } from '../shared/money';
import { transferDecider } from '../transfer/transfer.decider';
import { type BooksEvent, payoutsThroughOf, transferBooked } from './payout-books';
import { decidePayoutRequest, type PayoutAsk } from './payout-request';
import type { PayoutDestination } from './payout.events';

const AT = '2030-01-01T10:00:00.000Z';
const wallet: PayoutDestination = { kind: 'wallet', institution: 'telebirr', holderName: 'Abebe', accountMask: '••••5678', accountRef: 'dst_1', accountFingerprint: 'f1' };

type Account = 'payable' | 'fees';

/** What the log holds, in order: the merchant's movements (on its payable or, as a platform, its fees), its payouts' and its transfers' money events (the ledger rules of libs/audit). */
type Logged =
  | { kind: 'movement'; account: Account; amount: number }
  | { kind: 'requested' | 'paid' | 'failed'; payoutId: string; amount: number; fees: number }
  | { kind: 'transfer'; amount: number };

type Step =
  /** A release or a fee earned, or (negative) an order refunded or a reversal's fee given back. */
  | { kind: 'movement'; account: Account; amount: number }
  /** One payout asked for, or it and a second payout or a transfer out of the same money at once, deciding on the same books (in one process or two). */
  | { kind: 'request'; with?: 'payout' | 'transfer'; transfer: number }
  /** A transfer out of the merchant's money, to another party. */
  | { kind: 'transfer'; amount: number }
  /** The provider's outcome of the n-th payout. */
  | { kind: 'paid' | 'failed'; payout: number };

const anAmount = fc.oneof(fc.integer({ min: 1, max: 5_000_000 }), fc.integer({ min: -500_000, max: -1 }));
const aStep: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('movement' as const), account: fc.constantFrom<Account>('payable', 'fees'), amount: anAmount }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('request' as const), with: fc.constantFrom(undefined, 'payout' as const, 'transfer' as const), transfer: fc.integer({ min: 1, max: 3_000_000 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('transfer' as const), amount: fc.integer({ min: 1, max: 3_000_000 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constantFrom('paid' as const, 'failed' as const), payout: fc.nat({ max: 6 }) }), weight: 3 },
);

/** Each account's balance from the first `upTo` events of the log, as the ledger posts them: a payout takes `fees` from the fees account, the rest from the payable, and a failure gives each part back. */
function balancesAt(log: readonly Logged[], upTo = log.length): Record<Account, number> {
  const balances = { payable: 0, fees: 0 };
  for (const e of log.slice(0, upTo)) {
    if (e.kind === 'movement') balances[e.account] += e.amount;
    if (e.kind === 'transfer') balances.payable -= e.amount;
    if (e.kind === 'requested' || e.kind === 'failed') {
      const sign = e.kind === 'requested' ? -1 : 1;
      balances.payable += sign * (e.amount - e.fees);
      balances.fees += sign * e.fees;
    }
  }
  return balances;
}

describe('Payouts of the payable and fees balance, and transfers out of it, serialized by the books', () => {
  it('create or lose nothing, pay no payable or fee movement twice, never spend the same money twice, and each payout settles a range of both accounts that sums to its amount', () => {
    fc.assert(
      fc.property(fc.array(aStep, { maxLength: 60 }), (steps) => {
        const log: Logged[] = [];
        /** The books' events; their count is the books' revision. */
        const books: BooksEvent[] = [];
        const payouts: { payoutId: string; after: number; through: number; amount: number; fees: number }[] = [];
        const status = new Map<string, 'REQUESTED' | 'PAID' | 'FAILED'>();
        let next = 0;

        /** Reads the books, then decides at the ledger once it reached the log's head, as requestPayout and TransferAtBooks do. */
        const decide = (ask: { payout: PayoutAsk } | { transfer: number }) => {
          const revision = books.length;
          const last = books[revision - 1];
          const through = log.length;
          const after = Number((last && payoutsThroughOf(last)) ?? 0);
          const { payable, fees } = balancesAt(log, through);
          try {
            if ('payout' in ask) {
              const requested = decidePayoutRequest(ask.payout, { exists: status.has(ask.payout.payoutId), destination: { version: 1, destination: wallet, paused: false }, balance: payable + fees, fees, after: String(after), through: String(through) });
              return { revision, last, after, through, requested };
            }
            const terms = { transferId: `tr_${next++}`, platformId: 'm', source: 'm', destination: 'acct_1', amount: santim(ask.transfer), description: 'bonus', allowNegative: false, callbackUrl: null };
            const [created] = transferDecider.decide({ type: 'CreateTransfer', data: { ...terms, sourceAvailable: payable + fees, at: AT } }, transferDecider.initialState());
            return { revision, last, after, through, created };
          } catch (refusal) {
            if (!(refusal instanceof DomainError)) throw refusal;
            return { revision, last, after, through };
          }
        };
        /** Appends at the books' revision it decided on, or decides again (the runner's retry). */
        const append = (decision: ReturnType<typeof decide>, ask: Parameters<typeof decide>[0]): void => {
          if (decision.revision !== books.length) return append(decide(ask), ask);
          if ('requested' in decision && decision.requested) {
            const { amount, payoutId, fees = 0 } = decision.requested.data;
            log.push({ kind: 'requested', payoutId, amount, fees });
            books.push({ type: 'PayoutBooked', data: { merchantId: 'm', payoutId, through: String(decision.through) } });
            payouts.push({ payoutId, after: decision.after, through: decision.through, amount, fees });
            status.set(payoutId, 'REQUESTED');
          }
          if ('created' in decision && decision.created) {
            log.push({ kind: 'transfer', amount: decision.created.data.amount });
            books.push(transferBooked('m', decision.created.data.transferId, decision.last));
          }
          if (('requested' in decision && decision.requested) || ('created' in decision && decision.created)) {
            // Money out never takes what is available below zero.
            const { payable, fees } = balancesAt(log);
            expect(payable + fees).toBeGreaterThanOrEqual(0);
          }
        };

        for (const step of steps) {
          if (step.kind === 'movement') log.push(step);
          if (step.kind === 'transfer') append(decide({ transfer: step.amount }), { transfer: step.amount });
          if (step.kind === 'request') {
            const asks: Parameters<typeof decide>[0][] = [{ payout: { merchantId: 'm', payoutId: `po_${next++}`, trigger: 'on-demand', at: AT } }];
            if (step.with === 'payout') asks.push({ payout: { merchantId: 'm', payoutId: `po_${next++}`, trigger: 'on-demand', at: AT } });
            if (step.with === 'transfer') asks.unshift({ transfer: step.transfer });
            const decisions = asks.map((ask) => decide(ask));
            asks.forEach((ask, i) => append(decisions[i], ask));
          }
          if (step.kind === 'paid' || step.kind === 'failed') {
            const payout = payouts[step.payout];
            if (payout && status.get(payout.payoutId) === 'REQUESTED') {
              log.push({ kind: step.kind, payoutId: payout.payoutId, amount: payout.amount, fees: payout.fees });
              status.set(payout.payoutId, step.kind === 'paid' ? 'PAID' : 'FAILED');
            }
          }
        }

        const sum = (pick: (e: Logged) => number, from = 0, to = log.length) => log.slice(from, to).reduce((t, e) => t + pick(e), 0);
        const moved = (account: Account) => (e: Logged) => (e.kind === 'movement' && e.account === account ? e.amount : 0);
        const failed = (part: (e: { amount: number; fees: number }) => number) => (e: Logged) => (e.kind === 'failed' ? part(e) : 0);
        const of = (kind: Logged['kind']) => (e: Logged) => (e.kind === kind ? e.amount : 0);
        const { payable, fees } = balancesAt(log);
        const inTransit = sum(of('requested')) - sum(of('paid')) - sum(of('failed'));
        // Nothing created or lost: what the movements brought is in the two accounts, on its way, paid out or transferred.
        expect(payable + fees + inTransit + sum(of('paid')) + sum(of('transfer'))).toBe(sum(moved('payable')) + sum(moved('fees')));
        payouts.forEach((payout, i) => {
          expect(payout.amount).toBeGreaterThan(0);
          // Ranges follow one another, transfers booked between them or not: nothing is in two payouts' ranges, nothing between them is in none.
          expect(payout.after).toBe(i === 0 ? 0 : payouts[i - 1].through);
          expect(payout.through).toBeGreaterThanOrEqual(payout.after);
          // Its report, per account: the range's movements (transfers out of the payable among them), and what failed payouts returned into the range, each to the account it came from.
          const range = [payout.after, payout.through] as const;
          expect(payout.fees).toBe(sum(moved('fees'), ...range) + sum(failed((e) => e.fees), ...range));
          expect(payout.amount - payout.fees).toBe(sum(moved('payable'), ...range) - sum(of('transfer'), ...range) + sum(failed((e) => e.amount - e.fees), ...range));
        });
        // Nothing paid twice: what payouts still standing hold is exactly what the movements brought, less what was transferred and what is left.
        const standing = payouts.filter((p) => status.get(p.payoutId) !== 'FAILED').reduce((t, p) => t + p.amount, 0);
        expect(standing).toBe(sum(moved('payable')) + sum(moved('fees')) - sum(of('transfer')) - payable - fees);
      }),
      { numRuns: 300 },
    );
  });
});
