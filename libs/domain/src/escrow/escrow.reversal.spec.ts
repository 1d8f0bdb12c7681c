import fc from 'fast-check';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { santim, sumSantim } from '../shared/money';
import { ESCROW_ID, escrowCreated, escrowFunded, LATER, OWNER, PAYMENT_REF, refundId } from '../testing/escrow.fixtures';
import { given } from '../testing/given';
import type { EscrowCommand } from './escrow.commands';
import { escrowDecider } from './escrow.decider';
import type { EscrowEvent } from './escrow.events';
import { AccountIsClosed } from '../account/account-closing';
import { AllocationNotFound, AmountExceedsReversible, EscrowNotFound, NothingToReverse } from './escrow.errors';
import { reversibleAmount } from './escrow.state';

const escrow = (history: EscrowEvent[]) => given(escrowDecider, history);

const reverse = (data: { allocation: string; amount?: number; refundFee?: boolean; by?: string; payeeClosed?: { available: number } }): EscrowCommand => ({
  type: 'ReverseAllocation',
  data: {
    escrowId: ESCROW_ID,
    merchantId: data.by ?? OWNER,
    allocation: data.allocation,
    ...(data.amount !== undefined ? { amount: santim(data.amount) } : {}),
    reason: 'returned by the customer',
    refundFee: data.refundFee ?? false,
    at: LATER,
    ...(data.payeeClosed ? { payeeClosed: data.payeeClosed } : {}),
  },
});

const reversed = (n: number, merchantId: string, amount: number, feeReturned?: number): EscrowEvent => ({
  type: 'EscrowRefundRequested',
  data: {
    refundId: refundId(n),
    amount: santim(amount),
    paymentReferenceId: PAYMENT_REF,
    requestedAt: LATER,
    merchantIds: [merchantId],
    reason: 'REVERSED',
    allocations: [{ merchantId, amount: santim(amount) }],
    note: 'returned by the customer',
    ...(feeReturned !== undefined ? { feeReturned: santim(feeReturned) } : {}),
  },
});

// m-1: 100 ETB with a 10 ETB fee; m-2: 125 ETB without one (escrow.fixtures.ts).
const withFee = escrowCreated({ allocations: [{ merchantId: 'm-1', amount: santim(10_000), fee: santim(1_000) }, { merchantId: 'm-2', amount: santim(12_500) }] });
const paid: EscrowEvent[] = [withFee, escrowFunded()];
const m1Released: EscrowEvent[] = [...paid, { type: 'AllocationReleased', data: { merchantId: 'm-1', amount: santim(10_000), fee: santim(1_000), releasedAt: LATER } }];

describe('Escrow reversals (a return after release)', () => {
  it('takes back all an allocation released when no amount is given, the merchant bearing the whole of it', () => {
    escrow(m1Released).when(reverse({ allocation: 'm-1' })).then([reversed(1, 'm-1', 10_000)]);
  });

  it("gives back the fee's share from the creator's fees when asked", () => {
    escrow(m1Released).when(reverse({ allocation: 'm-1', amount: 4_000, refundFee: true })).then([reversed(1, 'm-1', 4_000, 400)]);
  });

  it('reverses part, then the rest, and nothing more', () => {
    const once = [...m1Released, reversed(1, 'm-1', 3_000)];
    escrow(once).when(reverse({ allocation: 'm-1' })).then([reversed(2, 'm-1', 7_000)]);
    escrow(once).when(reverse({ allocation: 'm-1', amount: 7_001 })).thenThrows(AmountExceedsReversible);
    escrow([...once, reversed(2, 'm-1', 7_000)]).when(reverse({ allocation: 'm-1' })).thenThrows(NothingToReverse);
  });

  it('refuses an allocation that released nothing, one that does not exist, and another merchant', () => {
    escrow(m1Released).when(reverse({ allocation: 'm-2' })).thenThrows(NothingToReverse);
    escrow(m1Released).when(reverse({ allocation: 'm-9' })).thenThrows(AllocationNotFound);
    escrow(m1Released).when(reverse({ allocation: 'm-1', by: 'someone-else' })).thenThrows(EscrowNotFound);
    escrow(paid).when(reverse({ allocation: 'm-1' })).thenThrows(NothingToReverse);
  });

  it('takes from a closed account what it still has available and no more: a debt it took on could never be repaid', () => {
    // The payee's debit is the amount less the fee's share the creator gives back (40 ETB less 4 ETB here).
    escrow(m1Released).when(reverse({ allocation: 'm-1', amount: 4_000, refundFee: true, payeeClosed: { available: 3_600 } })).then([reversed(1, 'm-1', 4_000, 400)]);
    escrow(m1Released).when(reverse({ allocation: 'm-1', amount: 4_000, payeeClosed: { available: 4_000 } })).then([reversed(1, 'm-1', 4_000)]);
    escrow(m1Released).when(reverse({ allocation: 'm-1', amount: 4_000, refundFee: true, payeeClosed: { available: 3_599 } })).thenThrows(AccountIsClosed);
    escrow(m1Released).when(reverse({ allocation: 'm-1', payeeClosed: { available: 0 } })).thenThrows(AccountIsClosed);
    escrow(m1Released).when(reverse({ allocation: 'm-1', amount: 1, payeeClosed: { available: -500 } })).thenThrows(AccountIsClosed);
    // Its own refusals first: there is nothing to take back from an allocation that released nothing.
    escrow(m1Released).when(reverse({ allocation: 'm-2', payeeClosed: { available: 0 } })).thenThrows(NothingToReverse);
  });

  it('leaves the allocation RELEASED, with what was reversed shown beside what it released', () => {
    const state = fold(escrowDecider, [...m1Released, reversed(1, 'm-1', 4_000, 400)]);
    const m1 = state.allocations.find((a) => a.merchantId === 'm-1')!;
    expect([state.status, m1.status, m1.released, m1.reversed, m1.feeReturned, reversibleAmount(m1)]).toEqual(['PARTIALLY_RELEASED', 'RELEASED', 10_000, 4_000, 400, 6_000]);
    expect(state.payment!.refunds.map((r) => [r.refundId, r.amount, r.status])).toEqual([[refundId(1), 4_000, 'PENDING']]);
  });

  it('never creates or loses a santim: whatever the split, the fees given back never pass the fee earned, and all of it once all is reversed with the fee', () => {
    const anAllocation = fc.integer({ min: 1, max: 10_000_000_000 }).chain((amount) => fc.record({ amount: fc.constant(amount), fee: fc.integer({ min: 0, max: amount }) }));
    const steps = fc.array(fc.record({ part: fc.integer({ min: 1, max: 1_000 }), refundFee: fc.boolean() }), { maxLength: 8 });
    fc.assert(
      fc.property(anAllocation, steps, fc.boolean(), (allocation, parts, lastWithFee) => {
        const allocations = [{ merchantId: 'm-1', amount: santim(allocation.amount), fee: santim(allocation.fee) }];
        let history: EscrowEvent[] = [
          escrowCreated({ allocations, amount: santim(allocation.amount) }),
          escrowFunded({ amount: santim(allocation.amount) }),
          { type: 'AllocationReleased', data: { merchantId: 'm-1', amount: santim(allocation.amount), fee: santim(allocation.fee), releasedAt: LATER } },
        ];
        const decide = (command: EscrowCommand) => {
          const events = escrowDecider.decide(command, fold(escrowDecider, history));
          history = [...history, ...events];
          return events;
        };
        const requests: { amount: number; fee: number; withFee: boolean }[] = [];
        for (const { part, refundFee } of parts) {
          const left = reversibleAmount(fold(escrowDecider, history).allocations[0]);
          if (left === 0) break;
          const amount = Math.max(1, Math.floor((left * part) / 1_000));
          const [event] = decide(reverse({ allocation: 'm-1', amount, refundFee }));
          if (event.type !== 'EscrowRefundRequested') throw new Error(event.type);
          requests.push({ amount: event.data.amount, fee: event.data.feeReturned ?? 0, withFee: refundFee });
        }
        if (reversibleAmount(fold(escrowDecider, history).allocations[0]) > 0) {
          const [event] = decide(reverse({ allocation: 'm-1', refundFee: lastWithFee }));
          if (event.type !== 'EscrowRefundRequested') throw new Error(event.type);
          requests.push({ amount: event.data.amount, fee: event.data.feeReturned ?? 0, withFee: lastWithFee });
        }
        expect(() => decide(reverse({ allocation: 'm-1' }))).toThrow(DomainError);
        const state = fold(escrowDecider, history);
        const m1 = state.allocations[0];
        expect(sumSantim(requests.map((r) => santim(r.amount)))).toBe(allocation.amount);
        expect(m1.reversed).toBe(allocation.amount);
        expect(m1.feeReturned).toBe(sumSantim(requests.map((r) => santim(r.fee))));
        expect(m1.feeReturned).toBeLessThanOrEqual(allocation.fee);
        for (const r of requests) expect(r.fee).toBeLessThanOrEqual(r.amount);
        if (requests.every((r) => r.withFee)) expect(m1.feeReturned).toBe(allocation.fee);
        // What the customer gets back never passes what was paid.
        expect(sumSantim(state.payment!.refunds.map((r) => r.amount))).toBe(allocation.amount);
      }),
    );
  });
});

