import fc from 'fast-check';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { santim, sumSantim } from '../shared/money';
import { escrowCreated, ESCROW_ID, LATER, OWNER } from '../testing/escrow.fixtures';
import { given } from '../testing/given';
import type { EscrowCommand } from './escrow.commands';
import { escrowDecider } from './escrow.decider';
import { feeEarnedOn, type EscrowState } from './escrow.state';
import type { EscrowEvent } from './escrow.events';
import { FeeExceedsAmount } from './escrow.errors';

/**
 * The creator's fee of an allocation is earned as its money is released, pro rata, rounded down to
 * the santim, and never on money refunded. Whatever the splits, no santim is created or lost: each
 * release's fee and net add up to what it released, the fees earned never pass the fee, and a full
 * release earns all of it.
 */
const paid = (allocation: { amount: number; fee: number }): EscrowEvent[] => {
  const allocations = [{ merchantId: 'm-1', amount: santim(allocation.amount), fee: santim(allocation.fee) }];
  return [
    escrowCreated({ allocations, amount: santim(allocation.amount) }),
    { type: 'EscrowFunded', data: { externalReferenceId: 'pay-1', paymentType: 'telebirr', amount: santim(allocation.amount), paidAt: LATER } },
  ];
};

const escrow = (history: EscrowEvent[]) => given(escrowDecider, history);

const release = (amount?: number): EscrowCommand => ({
  type: 'ReleaseFunds',
  data: { escrowId: ESCROW_ID, merchantId: OWNER, releases: [{ merchantId: 'm-1', amount: amount === undefined ? undefined : santim(amount) }], at: LATER },
});
const refund = (amount?: number): EscrowCommand => ({
  type: 'RefundFunds',
  data: { escrowId: ESCROW_ID, merchantId: OWNER, refunds: [{ merchantId: 'm-1', amount: amount === undefined ? undefined : santim(amount) }], note: 'n', at: LATER },
});

const anAllocation = fc
  .integer({ min: 1, max: 100_000_000_000 })
  .chain((amount) => fc.record({ amount: fc.constant(amount), fee: fc.integer({ min: 0, max: amount }) }));

describe('Escrow fees', () => {
  it('never creates or loses a santim over any split of releases and refunds', () => {
    fc.assert(
      fc.property(
        anAllocation,
        fc.array(fc.record({ refund: fc.boolean(), part: fc.option(fc.double({ min: 0, max: 1, noNaN: true })) }), { maxLength: 12 }),
        fc.boolean(),
        (allocation, steps, finish) => {
          const history = paid(allocation);
          const apply = (command: EscrowCommand) => {
            try {
              history.push(...escrowDecider.decide(command, fold(escrowDecider, history)));
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
            }
          };
          for (const step of steps) {
            const held = allocation.amount - fold(escrowDecider, history).allocations[0].released - fold(escrowDecider, history).allocations[0].refunded;
            const amount = step.part === null ? undefined : Math.max(1, Math.floor(held * step.part));
            apply(step.refund ? refund(amount) : release(amount));
          }
          if (finish) apply(release());
          const state: EscrowState = fold(escrowDecider, history);
          const [a] = state.allocations;
          // Each release: fee + net = gross, and the fees telescope to the pro-rata share of all released.
          for (const r of state.releases) expect(r.fee).toBeLessThanOrEqual(r.amount);
          expect(sumSantim(state.releases.map((r) => r.fee))).toBe(a.feeEarned);
          expect(a.feeEarned).toBe(feeEarnedOn(a, a.released));
          expect(a.feeEarned).toBeLessThanOrEqual(allocation.fee);
          if (a.released === allocation.amount) expect(a.feeEarned).toBe(allocation.fee);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('earns the fee as the money is released: 10 of 100 over two halves', () => {
    const history = paid({ amount: 10_000, fee: 1_000 });
    const first: EscrowEvent = { type: 'AllocationReleased', data: { merchantId: 'm-1', amount: santim(3_333), fee: santim(333), releasedAt: LATER } };
    escrow(history).when(release(3_333)).then([first]);
    escrow([...history, first])
      .when(release())
      .then([{ type: 'AllocationReleased', data: { merchantId: 'm-1', amount: santim(6_667), fee: santim(667), releasedAt: LATER } }]);
  });

  it('refuses a fee larger than its allocation', () => {
    const allocations = [{ merchantId: 'm-1', amount: santim(100), fee: santim(101) }];
    escrow([]).when({ type: 'CreateEscrow', data: escrowCreated({ allocations, amount: santim(100) }).data }).thenThrows(FeeExceedsAmount);
  });
});
