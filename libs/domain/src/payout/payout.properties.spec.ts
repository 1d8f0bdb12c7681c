import fc from 'fast-check';
import { DomainError } from '../shared/domain-error';
import { fold } from '../shared/decider';
import { santim } from '../shared/money';
import { payoutDecider, unsettledMovements } from './payout.decider';
import { type PayoutSettingsChanged, payoutSettingsDecider } from './payout-settings.decider';
import type { PayableMovement, PayoutCommand } from './payout.events';
import type { PayoutAccountEvent } from './payout.decider';

const AT = '2030-01-01T10:00:00.000Z';

type Step =
  /** A release (or, negative, an order refunded from the payable) reaches the ledger. */
  | { kind: 'movement'; amount: number }
  /** A payout asked for with what a ledger that lags `lag` movements behind knows. */
  | { kind: 'request'; lag: number }
  /** The merchant sets another minimum. */
  | { kind: 'minimum'; minimum: number }
  | { kind: 'sent' | 'paid' | 'failed'; payout: number };

const aStep: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('movement' as const), amount: fc.oneof(fc.integer({ min: 1, max: 5_000_000 }), fc.integer({ min: -500_000, max: -1 })) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('request' as const), lag: fc.integer({ min: 0, max: 3 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('minimum' as const), minimum: fc.constantFrom(1, 10_000, 1_000_000) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constantFrom('sent' as const, 'paid' as const, 'failed' as const), payout: fc.nat({ max: 5 }) }), weight: 3 },
);

describe('Payout account properties', () => {
  it('never pays a movement twice, never creates or loses a santim, and lets a payout end once', () => {
    fc.assert(
      fc.property(fc.array(aStep, { maxLength: 40 }), (steps) => {
        let history: PayoutAccountEvent[] = [{ type: 'PayoutDestinationSet', data: { merchantId: 'm-1', version: 1, destination: { kind: 'wallet', institution: 'telebirr', holderName: 'A', accountMask: '••••1', accountRef: 'acct_1', accountFingerprint: 'fp-1' }, setAt: AT } }];
        const ledger: PayableMovement[] = [];
        const payoutIds: string[] = [];
        let settingsHistory: PayoutSettingsChanged[] = [];
        for (const step of steps) {
          let command: PayoutCommand;
          if (step.kind === 'movement') {
            ledger.push({ eventId: `e${ledger.length + 1}`, amount: step.amount });
            continue;
          } else if (step.kind === 'request') {
            const payoutId = `p${payoutIds.length + 1}`;
            const { settings } = fold(payoutSettingsDecider, settingsHistory);
            command = { type: 'RequestPayout', data: { merchantId: 'm-1', payoutId, movements: ledger.slice(0, Math.max(0, ledger.length - step.lag)), settings, trigger: 'on-demand', at: AT } };
          } else if (step.kind === 'minimum') {
            const change = { type: 'SetPayoutSettings' as const, data: { merchantId: 'm-1', settings: { schedule: { kind: 'manual' as const }, minimumAmount: santim(step.minimum), callbackUrl: null }, at: AT } };
            settingsHistory = [...settingsHistory, ...payoutSettingsDecider.decide(change, fold(payoutSettingsDecider, settingsHistory))];
            continue;
          } else {
            const payoutId = payoutIds[step.payout] ?? 'p-unknown';
            const data = { payoutId, at: AT };
            command =
              step.kind === 'sent'
                ? { type: 'RecordPayoutSent', data: { ...data, providerReference: `ref-${payoutId}` } }
                : step.kind === 'paid'
                  ? { type: 'RecordPayoutPaid', data: { ...data, externalReferenceId: `tr-${payoutId}`, callbackUrl: null } }
                  : { type: 'RecordPayoutFailed', data: { ...data, reason: 'BOUNCED', callbackUrl: null } };
          }
          let events: PayoutAccountEvent[];
          try {
            events = payoutDecider.decide(command, fold(payoutDecider, history));
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            continue;
          }
          for (const e of events) if (e.type === 'PayoutRequested') payoutIds.push(e.data.payoutId);
          history = [...history, ...events];
        }

        const state = fold(payoutDecider, history);
        const requested = history.flatMap((e) => (e.type === 'PayoutRequested' ? [e.data] : []));
        const outcome = (payoutId: string) => history.filter((e) => (e.type === 'PayoutPaid' || e.type === 'PayoutFailed') && e.data.payoutId === payoutId);
        // Each payout is positive, is the sum of what it settles, and ends at most once.
        for (const p of requested) {
          expect(p.amount).toBeGreaterThan(0);
          expect(p.settles!.reduce((t, m) => t + m.amount, 0)).toBe(p.amount);
          expect(outcome(p.payoutId).length).toBeLessThanOrEqual(1);
        }
        // No movement settled by two payouts that did not fail.
        const standing = requested.filter((p) => !outcome(p.payoutId).some((e) => e.type === 'PayoutFailed'));
        const settled = standing.flatMap((p) => p.settles!.map((m) => m.eventId));
        expect(new Set(settled).size).toBe(settled.length);
        // Nothing created or lost: every movement is either in a standing payout or still to pay out.
        const total = ledger.reduce((t, m) => t + m.amount, 0);
        const inPayouts = standing.reduce((t, p) => t + p.amount, 0);
        const unsettled = unsettledMovements(state, ledger).reduce((t, m) => t + m.amount, 0);
        expect(inPayouts + unsettled).toBe(total);
      }),
      { numRuns: 1_000 },
    );
  });
});
