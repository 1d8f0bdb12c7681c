import fc from 'fast-check';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { santim, sumSantim } from '../shared/money';
import { CREATED_AT, escrowCreated, refundId } from '../testing/escrow.fixtures';
import { escrowDecider, isTerminal, type AllocationStatus, type EscrowCommand, type EscrowState, type EscrowStatus } from './escrow.decider';
import type { EscrowCreated, EscrowEvent } from './escrow.events';
import { AllocationSumMismatch, DuplicateAllocationMerchant } from './escrow.errors';

/**
 * Whatever the provider, the merchant and the clock do, in whatever order, the escrow never
 * loses, duplicates or double-spends money. Each run creates an escrow, then applies up to 30
 * random commands the way the command handler does: decide, and append only if nothing was thrown.
 */

const MINUTE = 60_000;
const minutesAfterCreation = (minutes: number) => new Date(Date.parse(CREATED_AT) + minutes * MINUTE).toISOString();

const anEscrow = fc
  .record({
    amounts: fc.array(fc.integer({ min: 1, max: 50_000_000 }), { minLength: 1, maxLength: 5 }),
    expiresInMinutes: fc.integer({ min: 5, max: 60 }),
  })
  .map(({ amounts, expiresInMinutes }): EscrowCreated => {
    const allocations = amounts.map((amount, i) => ({ merchantId: `m-${i}`, amount: santim(amount) }));
    return escrowCreated({ allocations, amount: sumSantim(allocations.map((a) => a.amount)), expiresAt: minutesAfterCreation(expiresInMinutes) });
  });

/** A command in the abstract; `advance` moves the clock forward, so time only runs one way. */
type Step =
  | { kind: 'pay'; ref: string; exact: boolean; amount: number; advance: number }
  | { kind: 'fail'; ref: string; advance: number }
  | { kind: 'expire'; advance: number }
  | { kind: 'release'; merchant: number; advance: number }
  | { kind: 'cancel'; advance: number }
  | { kind: 'refundFailure'; refund: number; advance: number }
  | { kind: 'completeRefund'; refund: number; advance: number };

/** Most commands arrive within the same minute; now and then the clock jumps, sometimes past expiry. */
const advance = fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 15 }), weight: 1 });
/** Most payments are of the right amount, so escrows do get funded, released and refunded. */
const exact = fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 });
const aRef = fc.constantFrom('pay-1', 'pay-2', 'pay-3', 'pay-4');
/** 0 names a refund that was never requested; k > 0 picks one of the refunds requested so far, if any. */
const aRefund = fc.integer({ min: 0, max: 4 });

const aStep: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('pay' as const), ref: aRef, exact, amount: fc.integer({ min: 1, max: 300_000_000 }), advance }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('fail' as const), ref: aRef, advance }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('expire' as const), advance }), weight: 1 },
  // Indices past the escrow's allocations name merchants it does not have.
  { arbitrary: fc.record({ kind: fc.constant('release' as const), merchant: fc.integer({ min: 0, max: 5 }), advance }), weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), advance }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('refundFailure' as const), refund: aRefund, advance }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('completeRefund' as const), refund: aRefund, advance }), weight: 4 },
);

function toCommand(step: Step, state: EscrowState, at: string): EscrowCommand {
  const created = state.created!;
  const refunds = state.refunds;
  const refund = (k: number) => (k === 0 ? 'no-such-refund' : refunds.length > 0 ? refunds[(k - 1) % refunds.length].refundId : refundId(k));
  switch (step.kind) {
    case 'pay':
      return {
        type: 'RecordEscrowPayment',
        data: { externalReferenceId: step.ref, paymentType: 'telebirr', amount: santim(step.exact ? created.amount : step.amount), at },
      };
    case 'fail':
      return { type: 'RecordEscrowPaymentFailure', data: { externalReferenceId: step.ref, reason: 'DECLINED', at } };
    case 'expire':
      return { type: 'ExpireEscrow', data: { at } };
    case 'release':
      return { type: 'ReleaseAllocation', data: { merchantId: `m-${step.merchant}`, at } };
    case 'cancel':
      return { type: 'CancelEscrow', data: { reason: 'changed mind', at } };
    case 'refundFailure':
      return { type: 'RecordEscrowRefundFailure', data: { refundId: refund(step.refund), reason: 'PROVIDER_DOWN', at } };
    case 'completeRefund':
      return { type: 'CompleteEscrowRefund', data: { refundId: refund(step.refund), externalReferenceId: `provider-${step.refund}`, at } };
  }
}

/** Allocation: HELD → RELEASED | REFUNDED (through REFUND_PENDING); VOID when the escrow closed unpaid. */
const ALLOCATION_MAY_BECOME: Record<AllocationStatus, AllocationStatus[]> = {
  PENDING: ['PENDING', 'HELD', 'VOID'],
  HELD: ['HELD', 'RELEASED', 'REFUND_PENDING'],
  RELEASED: ['RELEASED'],
  REFUND_PENDING: ['REFUND_PENDING', 'REFUNDED'],
  REFUNDED: ['REFUNDED'],
  VOID: ['VOID'],
};

/** DESIGN.md §5. */
const ESCROW_MAY_BECOME: Record<EscrowStatus, EscrowStatus[]> = {
  PENDING: ['PENDING', 'HELD', 'FAILED', 'EXPIRED', 'CANCELLED'],
  HELD: ['HELD', 'PARTIALLY_RELEASED', 'RELEASED', 'REFUND_PENDING'],
  PARTIALLY_RELEASED: ['PARTIALLY_RELEASED', 'RELEASED', 'REFUND_PENDING'],
  REFUND_PENDING: ['REFUND_PENDING', 'REFUNDED'],
  RELEASED: ['RELEASED'],
  FAILED: ['FAILED'],
  EXPIRED: ['EXPIRED'],
  CANCELLED: ['CANCELLED'],
  REFUNDED: ['REFUNDED'],
};

const FUNDED: ReadonlySet<AllocationStatus> = new Set(['HELD', 'RELEASED', 'REFUND_PENDING', 'REFUNDED']);

function assertInvariants(before: EscrowState, after: EscrowState, history: EscrowEvent[]): void {
  const created = after.created!;
  const amountIn = (statuses: AllocationStatus[]) => sumSantim(after.allocations.filter((a) => statuses.includes(a.status)).map((a) => a.amount));

  // Money of a funded escrow is always somewhere: held, released, being refunded or refunded.
  if (after.paymentReferenceId !== undefined) {
    expect(after.allocations.every((a) => FUNDED.has(a.status))).toBe(true);
    expect(amountIn(['HELD', 'RELEASED', 'REFUND_PENDING', 'REFUNDED'])).toBe(created.amount);
  } else {
    expect(after.allocations.some((a) => FUNDED.has(a.status))).toBe(false);
  }

  // An allocation is released or refunded, never both, and never goes back.
  after.allocations.forEach((allocation, i) => {
    expect(ALLOCATION_MAY_BECOME[before.allocations[i].status]).toContain(allocation.status);
  });

  // Terminal statuses never change; every other move is one DESIGN.md allows.
  expect(ESCROW_MAY_BECOME[before.status]).toContain(after.status);
  if (isTerminal(before.status)) expect(after.status).toBe(before.status);

  // The escrow's status agrees with its allocations.
  const all = (status: AllocationStatus) => after.allocations.every((a) => a.status === status);
  const some = (status: AllocationStatus) => after.allocations.some((a) => a.status === status);
  switch (after.status) {
    case 'PENDING':
      expect(all('PENDING')).toBe(true);
      break;
    case 'HELD':
      expect(all('HELD')).toBe(true);
      break;
    case 'PARTIALLY_RELEASED':
      expect(some('RELEASED') && some('HELD') && after.allocations.every((a) => a.status === 'RELEASED' || a.status === 'HELD')).toBe(true);
      break;
    case 'RELEASED':
      expect(all('RELEASED')).toBe(true);
      break;
    case 'FAILED':
    case 'EXPIRED':
    case 'CANCELLED':
      expect(all('VOID')).toBe(true);
      break;
    case 'REFUND_PENDING':
      expect(some('REFUND_PENDING') && !some('HELD') && !some('REFUNDED')).toBe(true);
      break;
    case 'REFUNDED':
      expect(some('REFUNDED') && !some('HELD') && !some('REFUND_PENDING')).toBe(true);
      break;
  }

  // No allocation is refunded twice, and a cancel never refunds more than the escrow holds.
  const refundedMerchants = after.refunds.flatMap((r) => r.merchantIds);
  expect(new Set(refundedMerchants).size).toBe(refundedMerchants.length);
  const cancelRefunds = after.refunds.filter((r) => r.reason === 'CANCELLED');
  expect(cancelRefunds.length).toBeLessThanOrEqual(1);
  expect(sumSantim(cancelRefunds.map((r) => r.amount))).toBeLessThanOrEqual(created.amount);
  for (const refund of cancelRefunds) {
    const allocations = after.allocations.filter((a) => refund.merchantIds.includes(a.merchantId));
    expect(refund.amount).toBe(sumSantim(allocations.map((a) => a.amount)));
    expect(refund.amount).toBeGreaterThan(0);
  }
  expect(new Set(after.refunds.map((r) => r.refundId)).size).toBe(after.refunds.length);

  // The escrow is funded at most once; every other payment is refused and refunded in full, once.
  expect(history.filter((e) => e.type === 'EscrowFunded').length).toBeLessThanOrEqual(1);
  const refused = history.flatMap((e) => (e.type === 'EscrowPaymentRefused' ? [[e.data.externalReferenceId, e.data.amount]] : []));
  const refundedPayments = history.flatMap((e) =>
    e.type === 'EscrowRefundRequested' && e.data.reason === 'PAYMENT_REFUSED' ? [[e.data.paymentReferenceId, e.data.amount]] : [],
  );
  expect(refundedPayments).toEqual(refused);
  const paymentsSeen = history.flatMap((e) => (e.type === 'EscrowFunded' || e.type === 'EscrowPaymentRefused' ? [e.data.externalReferenceId] : []));
  expect(new Set(paymentsSeen).size).toBe(paymentsSeen.length);
}

describe('Escrow properties', () => {
  it('keeps every invariant through any sequence of commands', () => {
    fc.assert(
      fc.property(anEscrow, fc.array(aStep, { maxLength: 30 }), (createdEvent, steps) => {
        const history: EscrowEvent[] = [createdEvent];
        let state = fold(escrowDecider, history);
        let clock = 0;
        for (const step of steps) {
          clock += step.advance;
          const command = toCommand(step, state, minutesAfterCreation(clock));
          const snapshot = structuredClone(state);
          let events: EscrowEvent[];
          try {
            events = escrowDecider.decide(command, state);
          } catch (error) {
            // A refused command appends nothing; anything but a domain rule is a bug.
            if (!(error instanceof DomainError)) throw error;
            expect(state).toEqual(snapshot);
            continue;
          }
          expect(state).toEqual(snapshot);
          const next = events.reduce(escrowDecider.evolve, state);
          history.push(...events);
          assertInvariants(state, next, history);
          state = next;
        }
        expect(fold(escrowDecider, history)).toEqual(state);
      }),
      { numRuns: 1_000 },
    );
  });

  it('an accepted command, repeated at once, changes nothing or is refused', () => {
    fc.assert(
      fc.property(anEscrow, fc.array(aStep, { maxLength: 30 }), (createdEvent, steps) => {
        let state = fold(escrowDecider, [createdEvent]);
        let clock = 0;
        for (const step of steps) {
          clock += step.advance;
          const command = toCommand(step, state, minutesAfterCreation(clock));
          let events: EscrowEvent[];
          try {
            events = escrowDecider.decide(command, state);
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            continue;
          }
          state = events.reduce(escrowDecider.evolve, state);
          // A provider or a client retrying must never move money twice. A refund failure changes
          // no state, so a repeated failure report is simply recorded again.
          let retried: EscrowEvent[] = [];
          try {
            retried = escrowDecider.decide(command, state);
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
          }
          if (command.type === 'RecordEscrowRefundFailure') expect(retried.map((e) => e.type)).toEqual(events.map((e) => e.type));
          else expect(retried).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('creates an escrow only when its allocations add up to the amount', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 50_000_000 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 250_000_000 }),
        (amounts, amount) => {
          const allocations = amounts.map((a, i) => ({ merchantId: `m-${i}`, amount: santim(a) }));
          const command: EscrowCommand = { type: 'CreateEscrow', data: escrowCreated({ allocations, amount: santim(amount) }).data };
          const sum = amounts.reduce((a, b) => a + b, 0);
          if (sum === amount) expect(escrowDecider.decide(command, escrowDecider.initialState())).toHaveLength(1);
          else expect(() => escrowDecider.decide(command, escrowDecider.initialState())).toThrow(AllocationSumMismatch);
        },
      ),
    );
  });

  it('never accepts a merchant twice in one escrow', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('m-1', 'm-2', 'm-3'), { minLength: 2, maxLength: 5 }), (merchants) => {
        fc.pre(new Set(merchants).size < merchants.length);
        const allocations = merchants.map((merchantId) => ({ merchantId, amount: santim(100) }));
        const command: EscrowCommand = { type: 'CreateEscrow', data: escrowCreated({ allocations, amount: santim(100 * merchants.length) }).data };
        expect(() => escrowDecider.decide(command, escrowDecider.initialState())).toThrow(DuplicateAllocationMerchant);
      }),
    );
  });
});
