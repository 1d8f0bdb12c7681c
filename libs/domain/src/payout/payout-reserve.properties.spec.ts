import fc from 'fast-check';
import { addisMidnight, DAY_MS } from '../shared/addis-ababa-time';
import { DomainError } from '../shared/domain-error';
import { santim } from '../shared/money';
import { creditKeptAt, MAX_CREDIT_KEPT_DAYS, MAX_PAYOUT_DELAY_DAYS, MAX_RESERVE_DAYS, reservedShare } from './payout-availability';
import { decidePayoutRequest } from './payout-request';
import type { PayoutDestination } from './payout.events';

const wallet: PayoutDestination = { kind: 'wallet', institution: 'telebirr', holderName: 'Abebe', accountMask: '••••5678', accountRef: 'dst_1', accountFingerprint: 'f1' };
const HOUR_MS = 3_600_000;

type Rules = { delayDays: number; reservePercent: number; reserveDays: number };

type Step =
  /** A release, a paid order or a transfer in, credited to the payable: kept by the rules in force. */
  | { kind: 'credit'; amount: number }
  /** A reversal or a transfer out: counts at once. */
  | { kind: 'debit'; amount: number }
  /** The platform changes the seller's holding period and reserve: credits posted after it follow them. */
  | { kind: 'rules'; rules: Rules }
  | { kind: 'wait'; hours: number }
  /** A payout of all that is available, or of a chosen amount (santim) of it. */
  | { kind: 'payout'; amount?: number }
  | { kind: 'paid' | 'failed'; payout: number };

const aStep: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('credit' as const), amount: fc.integer({ min: 1, max: 2_000_000 }) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('debit' as const), amount: fc.integer({ min: 1, max: 300_000 }) }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('rules' as const),
      rules: fc.record({ delayDays: fc.integer({ min: 0, max: MAX_PAYOUT_DELAY_DAYS }), reservePercent: fc.integer({ min: 0, max: 100 }), reserveDays: fc.integer({ min: 1, max: MAX_RESERVE_DAYS }) }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 0, max: 24 * 20 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('payout' as const), amount: fc.option(fc.integer({ min: 1, max: 3_000_000 }), { nil: undefined }) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constantFrom('paid' as const, 'failed' as const), payout: fc.nat({ max: 8 }) }), weight: 2 },
);

/** A posting of the payable: a credit with the rules in force when it was posted, a debit, or a payout's own movement. */
type Posting = { amount: number; postedAt: number; rules: Rules; payout?: true };

/**
 * What the rule lets out of a credit at `now`, stated on its own terms rather than through creditKeptAt:
 * nothing before the holding period's day; after it, all but the reserve (a percentage, rounded down)
 * until the reserve's day; then all of it. A day starts at midnight in Addis Ababa.
 */
function allowedOut(p: Posting, now: number): number {
  if (p.amount <= 0) return p.amount;
  const day = addisMidnight(p.postedAt);
  if (now < day + p.rules.delayDays * DAY_MS) return 0;
  if (now < day + p.rules.reserveDays * DAY_MS) return p.amount - Math.floor((p.amount * p.rules.reservePercent) / 100);
  return p.amount;
}

describe('A rolling reserve', () => {
  it('keeps a share of at most its percentage, rounded down to the santim, and less than a santim below it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), fc.integer({ min: 0, max: 100 }), (amount, percent) => {
        const reserved = reservedShare(amount, percent);
        expect(Number.isInteger(reserved)).toBe(true);
        expect(reserved * 100).toBeLessThanOrEqual(amount * percent);
        expect((reserved + 1) * 100).toBeGreaterThan(amount * percent);
      }),
    );
  });

  it('never lets more out than the rule allows, pays each santim once, and creates or loses nothing, with chosen amounts, failures and changes of the rules', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2030, 0, 1), max: Date.UTC(2031, 0, 1) }), fc.array(aStep, { maxLength: 60 }), (start, steps) => {
        const ledger: Posting[] = [];
        const payouts: { amount: number; status: 'REQUESTED' | 'PAID' | 'FAILED' }[] = [];
        let now = start;
        let rules: Rules = { delayDays: 0, reservePercent: 0, reserveDays: 0 };

        const balance = () => ledger.reduce((sum, p) => sum + p.amount, 0);
        const kept = () =>
          ledger.reduce((sum, p) => {
            if (p.payout || p.amount <= 0) return sum;
            const { held, reserved } = creditKeptAt(p.amount, p.postedAt, now, p.rules);
            return sum + held + reserved;
          }, 0);
        const earnedAllowed = () => ledger.reduce((sum, p) => sum + (p.payout ? 0 : allowedOut(p, now)), 0);
        const standing = () => payouts.reduce((sum, p) => sum + (p.status === 'FAILED' ? 0 : p.amount), 0);
        const payOut = (chosen?: number) => {
          try {
            const ask = { merchantId: 'm', payoutId: `po_${payouts.length}`, trigger: 'on-demand' as const, at: new Date(now).toISOString(), ...(chosen && { amount: santim(chosen) }) };
            const basis = { exists: false, destination: { version: 1, destination: wallet, paused: false }, balance: balance(), fees: 0, notYetAvailable: kept(), after: null, through: '0-0' };
            const { amount } = decidePayoutRequest(ask, basis)!.data;
            if (chosen !== undefined) expect(amount).toBe(chosen);
            ledger.push({ amount: -amount, postedAt: now, rules, payout: true });
            payouts.push({ amount, status: 'REQUESTED' });
            // What payouts took is never more than the rule lets out of what was earned; taking all, it is exactly that.
            expect(standing()).toBeLessThanOrEqual(earnedAllowed());
            if (chosen === undefined) expect(standing()).toBe(earnedAllowed());
          } catch (refusal) {
            if (!(refusal instanceof DomainError)) throw refusal;
            // Refused only when the payout would take more than the rule lets out.
            expect(standing() + (chosen ?? 1)).toBeGreaterThan(earnedAllowed());
          }
        };

        for (const step of steps) {
          if (step.kind === 'credit') ledger.push({ amount: step.amount, postedAt: now, rules });
          if (step.kind === 'debit') ledger.push({ amount: -step.amount, postedAt: now, rules });
          if (step.kind === 'rules') rules = step.rules;
          if (step.kind === 'wait') now += step.hours * HOUR_MS;
          if (step.kind === 'payout') payOut(step.amount);
          if ((step.kind === 'paid' || step.kind === 'failed') && payouts[step.payout]?.status === 'REQUESTED') {
            const payout = payouts[step.payout];
            payout.status = step.kind === 'paid' ? 'PAID' : 'FAILED';
            if (step.kind === 'failed') ledger.push({ amount: payout.amount, postedAt: now, rules, payout: true });
          }
          // Nothing created or lost: what was earned is in the payable or in payouts standing.
          expect(balance() + standing()).toBe(ledger.reduce((sum, p) => sum + (p.payout ? 0 : p.amount), 0));
        }

        // Once every holding period and reserve is over, one more payout leaves nothing behind: the reserve only delays.
        now += (MAX_CREDIT_KEPT_DAYS + 1) * DAY_MS;
        expect(kept()).toBe(0);
        payOut();
        expect(balance()).toBeLessThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});
