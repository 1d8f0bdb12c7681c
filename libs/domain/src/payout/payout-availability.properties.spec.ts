import fc from 'fast-check';
import { DAY_MS } from '../shared/addis-ababa-time';
import { DomainError } from '../shared/domain-error';
import { creditAvailableAt, MAX_PAYOUT_DELAY_DAYS } from './payout-availability';
import { decidePayoutRequest } from './payout-request';
import type { PayoutDestination } from './payout.events';

const wallet: PayoutDestination = { kind: 'wallet', institution: 'telebirr', holderName: 'Abebe', accountMask: '••••5678', accountRef: 'dst_1', accountFingerprint: 'f1' };
const HOUR_MS = 3_600_000;

type Step =
  /** A release (or paid order, or transfer in) credited to the payable: held for the holding period in force. */
  | { kind: 'credit'; amount: number }
  /** A reversal, a transfer out or a penalty: counts at once, and may take the payable below zero. */
  | { kind: 'debit'; amount: number }
  /** A fee the platform earned, credited to its fees account: never held. */
  | { kind: 'fee'; amount: number }
  /** The merchant changes its holding period: credits posted after it follow it. */
  | { kind: 'delay'; days: number }
  | { kind: 'wait'; hours: number }
  | { kind: 'payout' }
  /** The provider's outcome of the n-th payout: a failed one returns its money to the payable, available at once. */
  | { kind: 'paid' | 'failed'; payout: number };

const aStep: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('credit' as const), amount: fc.integer({ min: 1, max: 2_000_000 }) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('debit' as const), amount: fc.integer({ min: 1, max: 500_000 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('fee' as const), amount: fc.integer({ min: 1, max: 300_000 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('delay' as const), days: fc.integer({ min: 0, max: MAX_PAYOUT_DELAY_DAYS }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 0, max: 24 * 12 }) }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'payout' as const }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constantFrom('paid' as const, 'failed' as const), payout: fc.nat({ max: 8 }) }), weight: 2 },
);

/** A posting of the payable or the fees account, as the ledger holds it: what a payout moves out and a failure returns too. */
type Posting = { amount: number; availableAt: number; payout?: true; fees?: true };

describe('A holding period', () => {
  it('pays no money before its day, loses none and pays none twice, across releases, fees, reversals, payouts, failures and changes of the period', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2030, 0, 1), max: Date.UTC(2031, 0, 1) }), fc.array(aStep, { maxLength: 60 }), (start, steps) => {
        const ledger: Posting[] = [];
        const payouts: { amount: number; fees: number; status: 'REQUESTED' | 'PAID' | 'FAILED' }[] = [];
        let now = start;
        let delay = 0;

        const balance = () => ledger.reduce((sum, p) => sum + p.amount, 0);
        const feesBalance = () => ledger.reduce((sum, p) => sum + (p.fees ? p.amount : 0), 0);
        const notYetAvailable = () => ledger.reduce((sum, p) => sum + (!p.fees && p.amount > 0 && p.availableAt > now ? p.amount : 0), 0);
        /** What the payable earned that was available at `now`: every debit at once, a credit from its day. */
        const earnedAvailable = () => ledger.reduce((sum, p) => sum + (!p.payout && (p.amount < 0 || p.availableAt <= now) ? p.amount : 0), 0);
        const standing = () => payouts.reduce((sum, p) => sum + (p.status === 'FAILED' ? 0 : p.amount), 0);
        const payOut = () => {
          const before = standing();
          try {
            const ask = { merchantId: 'm', payoutId: `po_${payouts.length}`, trigger: 'on-demand' as const, at: new Date(now).toISOString() };
            const basis = { exists: false, destination: { version: 1, destination: wallet, paused: false }, balance: balance(), fees: feesBalance(), notYetAvailable: notYetAvailable(), after: null, through: '0-0' };
            const { amount, fees = 0 } = decidePayoutRequest(ask, basis)!.data;
            ledger.push({ amount: -(amount - fees), availableAt: now, payout: true }, { amount: -fees, availableAt: now, payout: true, fees: true });
            payouts.push({ amount, fees, status: 'REQUESTED' });
            // Fees are never held: a payout takes them whole, whatever the payable keeps.
            expect(feesBalance()).toBe(0);
            // It takes exactly what is available and not yet paid out: no santim before its day, none twice, none left behind.
            expect(standing()).toBe(earnedAvailable());
          } catch (refusal) {
            if (!(refusal instanceof DomainError)) throw refusal;
            // Refused only when payouts already hold all that is available (a debit since may have taken the payable below it).
            expect(before).toBeGreaterThanOrEqual(earnedAvailable());
          }
        };

        for (const step of steps) {
          if (step.kind === 'credit') ledger.push({ amount: step.amount, availableAt: creditAvailableAt(now, delay) });
          if (step.kind === 'debit') ledger.push({ amount: -step.amount, availableAt: now });
          if (step.kind === 'fee') ledger.push({ amount: step.amount, availableAt: now, fees: true });
          if (step.kind === 'delay') delay = step.days;
          if (step.kind === 'wait') now += step.hours * HOUR_MS;
          if (step.kind === 'payout') payOut();
          if ((step.kind === 'paid' || step.kind === 'failed') && payouts[step.payout]?.status === 'REQUESTED') {
            const payout = payouts[step.payout];
            payout.status = step.kind === 'paid' ? 'PAID' : 'FAILED';
            // A failure returns each part to the account it came from.
            if (step.kind === 'failed') ledger.push({ amount: payout.amount - payout.fees, availableAt: now, payout: true }, { amount: payout.fees, availableAt: now, payout: true, fees: true });
          }
          // Nothing created or lost: what was earned is in the payable or in payouts standing.
          expect(balance() + standing()).toBe(ledger.reduce((sum, p) => sum + (p.payout ? 0 : p.amount), 0));
        }

        // Once every holding period is over, one more payout leaves nothing behind: nothing was skipped.
        now += (MAX_PAYOUT_DELAY_DAYS + 1) * DAY_MS;
        expect(notYetAvailable()).toBe(0);
        payOut();
        expect(balance()).toBeLessThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});
