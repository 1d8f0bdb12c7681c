import fc from 'fast-check';
import { DomainError } from '../shared/domain-error';
import { decidePayoutRequest, type PayoutAsk } from './payout-request';
import type { PayoutDestination } from './payout.events';

const AT = '2030-01-01T10:00:00.000Z';
const wallet: PayoutDestination = { kind: 'wallet', institution: 'telebirr', holderName: 'Abebe', accountMask: '••••5678', accountRef: 'dst_1', accountFingerprint: 'f1' };

/** What the log holds, in order: the merchant's payable movements and its payouts' money events (the ledger rules of libs/audit). */
type Logged = { kind: 'movement'; amount: number } | { kind: 'requested' | 'paid' | 'failed'; payoutId: string; amount: number };

type Step =
  /** A release, or (negative) an order refunded from the payable. */
  | { kind: 'movement'; amount: number }
  /** One payout asked for, or two at once deciding on the same books (the on-demand and the scheduled one meet the same way: payout-schedule.properties.spec.ts covers which periods pay). */
  | { kind: 'request'; concurrent: boolean }
  /** The provider's outcome of the n-th payout. */
  | { kind: 'paid' | 'failed'; payout: number }
  /** The projector moves part of the way to the log's head. */
  | { kind: 'project'; share: number };

const aStep: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('movement' as const), amount: fc.oneof(fc.integer({ min: 1, max: 5_000_000 }), fc.integer({ min: -500_000, max: -1 })) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('request' as const), concurrent: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constantFrom('paid' as const, 'failed' as const), payout: fc.nat({ max: 6 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('project' as const), share: fc.double({ min: 0, max: 1, noNaN: true }) }), weight: 2 },
);

/** The payable's balance from the first `upTo` events of the log, as the ledger posts them. */
function balanceAt(log: readonly Logged[], upTo: number): number {
  return log.slice(0, upTo).reduce((sum, e) => sum + (e.kind === 'movement' || e.kind === 'failed' ? e.amount : e.kind === 'requested' ? -e.amount : 0), 0);
}

describe('Payouts of the payable balance, serialized by the books', () => {
  it('create or lose nothing, pay nothing twice, and each settles a range that, with what failed payouts returned into it, sums to its amount', () => {
    fc.assert(
      fc.property(fc.array(aStep, { maxLength: 60 }), (steps) => {
        const log: Logged[] = [];
        /** The books: each payout's range end (a log index), in order; their length is the books' revision. */
        const books: { payoutId: string; after: number; through: number; amount: number }[] = [];
        const status = new Map<string, 'REQUESTED' | 'PAID' | 'FAILED'>();
        let projected = 0;
        let next = 0;

        /** Reads the books and decides at the ledger once it reached the log's head, as requestPayout does. */
        const decide = (ask: PayoutAsk) => {
          const revision = books.length;
          projected = log.length;
          const through = projected;
          const after = revision === 0 ? 0 : books[revision - 1].through;
          try {
            const requested = decidePayoutRequest(ask, { exists: status.has(ask.payoutId), destination: { version: 1, destination: wallet, paused: false }, balance: balanceAt(log, through), after: String(after), through: String(through) });
            return { revision, requested, through, after };
          } catch (refusal) {
            if (!(refusal instanceof DomainError)) throw refusal;
            return { revision, requested: undefined, through, after };
          }
        };
        /** Appends at the books' revision it decided on, or decides again (the runner's retry). */
        const append = (decision: ReturnType<typeof decide>, ask: PayoutAsk): void => {
          if (decision.revision !== books.length) return append(decide(ask), ask);
          if (!decision.requested) return;
          const { amount, payoutId } = decision.requested.data;
          log.push({ kind: 'requested', payoutId, amount });
          books.push({ payoutId, after: decision.after, through: decision.through, amount });
          status.set(payoutId, 'REQUESTED');
        };

        for (const step of steps) {
          if (step.kind === 'movement') log.push(step);
          if (step.kind === 'project') projected = Math.max(projected, Math.floor(projected + (log.length - projected) * step.share));
          if (step.kind === 'request') {
            const asks: PayoutAsk[] = [{ merchantId: 'm', payoutId: `po_${next++}`, trigger: 'on-demand', at: AT }];
            if (step.concurrent) asks.push({ merchantId: 'm', payoutId: `po_${next++}`, trigger: 'on-demand', at: AT });
            const decisions = asks.map((ask) => decide(ask));
            asks.forEach((ask, i) => append(decisions[i], ask));
          }
          if (step.kind === 'paid' || step.kind === 'failed') {
            const payout = books[step.payout];
            if (payout && status.get(payout.payoutId) === 'REQUESTED') {
              log.push({ kind: step.kind, payoutId: payout.payoutId, amount: payout.amount });
              status.set(payout.payoutId, step.kind === 'paid' ? 'PAID' : 'FAILED');
            }
          }
        }

        const sum = (kind: Logged['kind'], from = 0, to = log.length) => log.slice(from, to).reduce((t, e) => t + (e.kind === kind ? e.amount : 0), 0);
        const payable = balanceAt(log, log.length);
        const inTransit = sum('requested') - sum('paid') - sum('failed');
        // Nothing created or lost: what the movements brought is payable, on its way or paid out.
        expect(payable + inTransit + sum('paid')).toBe(sum('movement'));
        books.forEach((payout, i) => {
          expect(payout.amount).toBeGreaterThan(0);
          // Ranges follow one another: nothing is in two payouts' ranges, nothing between them is in none.
          expect(payout.after).toBe(i === 0 ? 0 : books[i - 1].through);
          expect(payout.through).toBeGreaterThanOrEqual(payout.after);
          // Its report: the range's movements, and a carried line of exactly what failed payouts returned into the range.
          expect(payout.amount).toBe(sum('movement', payout.after, payout.through) + sum('failed', payout.after, payout.through));
        });
        // Nothing paid twice: what payouts still standing hold never exceeds what the movements brought, less the payable left.
        const standing = books.filter((p) => status.get(p.payoutId) !== 'FAILED').reduce((t, p) => t + p.amount, 0);
        expect(standing).toBe(sum('movement') - payable);
      }),
      { numRuns: 300 },
    );
  });
});
