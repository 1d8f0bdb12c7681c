import fc from 'fast-check';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { santim, sumSantim } from '../shared/money';
import { CREATED_AT, escrowCreated, refundId } from '../testing/escrow.fixtures';
import type { EscrowCommand } from './escrow.commands';
import { escrowDecider } from './escrow.decider';
import { escrowOutline } from './escrow.outline';
import { paymentOutline } from '../payment/payment.outline';
import { allocationHeld, type AllocationState, escrowPaymentStatus, frozenAmount, heldAmount, type AllocationStatus, type EscrowState, type EscrowStatus } from './escrow.state';
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
    // Released automatically two hours after creation unless moved: due within many runs.
    return escrowCreated({
      allocations,
      amount: sumSantim(allocations.map((a) => a.amount)),
      expiresAt: minutesAfterCreation(expiresInMinutes),
      autoReleaseAt: minutesAfterCreation(120),
    });
  });

/** A command in the abstract; `advance` moves the clock forward, so time only runs one way. */
type Step =
  | { kind: 'pay'; ref: string; exact: boolean; amount: number; advance: number }
  | { kind: 'fail'; ref: string; advance: number }
  | { kind: 'expire'; advance: number }
  /** Part (`amount`) or all of what allocations hold, one or several in one command; a merchant may repeat (refused). */
  | { kind: 'release'; parts: { merchant: number; amount: number | null }[]; advance: number }
  | { kind: 'refund'; parts: { merchant: number; amount: number | null }[]; advance: number }
  | { kind: 'cancel'; advance: number }
  | { kind: 'refundFailure'; refund: number; advance: number }
  | { kind: 'completeRefund'; refund: number; advance: number }
  /** A dispute of one allocation, or (`merchant` null) of all that hold money. */
  | { kind: 'dispute'; merchant: number | null; advance: number }
  /** `releaseShare` of what is frozen is released, the rest refunded; `off` santim makes the split wrong. */
  | { kind: 'resolve'; merchant: number | null; releaseShare: number; off: number; advance: number }
  | { kind: 'releaseDue'; advance: number }
  | { kind: 'reschedule'; minutes: number | null; advance: number }
  /** A return after release: part (`amount`) or all of what an allocation released and has not reversed, with or without the fee given back. */
  | { kind: 'reverse'; merchant: number; amount: number | null; refundFee: boolean; advance: number };

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
  {
    arbitrary: fc.record({
      kind: fc.constant('release' as const),
      // Amounts up to the largest allocation: some fit what is held, some exceed it.
      parts: fc.array(fc.record({ merchant: fc.integer({ min: 0, max: 5 }), amount: fc.option(fc.integer({ min: 1, max: 50_000_000 })) }), { minLength: 1, maxLength: 3 }),
      advance,
    }),
    weight: 8,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      parts: fc.array(fc.record({ merchant: fc.integer({ min: 0, max: 5 }), amount: fc.option(fc.integer({ min: 1, max: 50_000_000 })) }), { minLength: 1, maxLength: 3 }),
      advance,
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), advance }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('refundFailure' as const), refund: aRefund, advance }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('completeRefund' as const), refund: aRefund, advance }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('dispute' as const), merchant: fc.option(fc.integer({ min: 0, max: 5 })), advance }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant('resolve' as const),
      // Mostly the escrow's only disputed allocation, so that disputes do get resolved.
      merchant: fc.option(fc.integer({ min: 0, max: 5 }), { freq: 2 }),
      releaseShare: fc.double({ min: 0, max: 1, noNaN: true }),
      off: fc.oneof({ arbitrary: fc.constant(0), weight: 4 }, { arbitrary: fc.integer({ min: -2, max: 2 }), weight: 1 }),
      advance,
    }),
    weight: 6,
  },
  { arbitrary: fc.record({ kind: fc.constant('releaseDue' as const), advance: fc.integer({ min: 0, max: 90 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('reschedule' as const), minutes: fc.option(fc.integer({ min: -10, max: 200 })), advance }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('reverse' as const), merchant: fc.integer({ min: 0, max: 5 }), amount: fc.option(fc.integer({ min: 1, max: 50_000_000 })), refundFee: fc.boolean(), advance }),
    weight: 3,
  },
);

/** After payment: releases, refunds, disputes, resolutions and the clock, weighted to reach resolutions. */
const aMarketplaceStep: fc.Arbitrary<Step> = aStep.filter((step) => !['pay', 'fail', 'expire'].includes(step.kind));

function toCommand(step: Step, state: EscrowState, at: string): EscrowCommand {
  const created = state.created!;
  const refunds = state.refunds;
  const refund = (k: number) => (k === 0 ? 'no-such-refund' : refunds.length > 0 ? refunds[(k - 1) % refunds.length].refundId : refundId(k));
  switch (step.kind) {
    case 'pay':
      return {
        type: 'RecordPayment',
        data: { externalReferenceId: step.ref, paymentType: 'telebirr', amount: santim(step.exact ? created.amount : step.amount), at },
      };
    case 'fail':
      return { type: 'RecordPaymentFailure', data: { externalReferenceId: step.ref, reason: 'DECLINED', at } };
    case 'expire':
      return { type: 'ExpirePayment', data: { at } };
    case 'release': {
      const releases = step.parts.map((part) => ({ merchantId: `m-${part.merchant}`, amount: part.amount === null ? undefined : santim(part.amount) }));
      return { type: 'ReleaseFunds', data: { escrowId: created.escrowId, merchantId: created.merchantId, releases, at } };
    }
    case 'refund': {
      const refunds = step.parts.map((part) => ({ merchantId: `m-${part.merchant}`, amount: part.amount === null ? undefined : santim(part.amount) }));
      return { type: 'RefundFunds', data: { escrowId: created.escrowId, merchantId: created.merchantId, refunds, note: 'vendor could not deliver', at } };
    }
    case 'cancel':
      return { type: 'CancelEscrow', data: { escrowId: created.escrowId, merchantId: created.merchantId, reason: 'changed mind', at } };
    case 'refundFailure':
      return { type: 'RecordRefundFailure', data: { refundId: refund(step.refund), reason: 'PROVIDER_DOWN', at } };
    case 'completeRefund':
      return { type: 'CompleteRefund', data: { refundId: refund(step.refund), externalReferenceId: `provider-${step.refund}`, at } };
    case 'dispute':
      return {
        type: 'OpenDispute',
        data: { escrowId: created.escrowId, merchantId: created.merchantId, ...(step.merchant === null ? {} : { allocation: `m-${step.merchant}` }), reason: 'not delivered', at },
      };
    case 'resolve': {
      const named = step.merchant === null ? state.allocations.find((a) => a.status === 'DISPUTED') : state.allocations[step.merchant];
      const frozen = named?.frozen ?? 0;
      const release = Math.floor(frozen * step.releaseShare);
      const split = { release: santim(release), refund: santim(Math.max(0, frozen - release + step.off)) };
      // Unnamed, the split is of the only disputed allocation; of several, the first is named.
      const disputed = state.allocations.filter((a) => a.status === 'DISPUTED');
      const merchantId = step.merchant !== null ? `m-${step.merchant}` : disputed.length > 1 ? named!.merchantId : undefined;
      const resolutions = [merchantId === undefined ? split : { merchantId, ...split }];
      return { type: 'ResolveDispute', data: { escrowId: created.escrowId, merchantId: created.merchantId, resolutions, note: 'split', at } };
    }
    case 'releaseDue':
      return { type: 'ReleaseDue', data: { escrowId: created.escrowId, at } };
    case 'reverse':
      return {
        type: 'ReverseAllocation',
        data: {
          escrowId: created.escrowId,
          merchantId: created.merchantId,
          allocation: `m-${step.merchant}`,
          ...(step.amount === null ? {} : { amount: santim(step.amount) }),
          reason: 'returned',
          refundFee: step.refundFee,
          at,
        },
      };
    case 'reschedule': {
      const autoReleaseAt = step.minutes === null ? null : new Date(Date.parse(at) + step.minutes * MINUTE).toISOString();
      return { type: 'RescheduleAutoRelease', data: { escrowId: created.escrowId, merchantId: created.merchantId, autoReleaseAt, at } };
    }
  }
}

/** Allocation: HELD → PARTIALLY_RELEASED → RELEASED, or the rest REFUNDED (through REFUND_PENDING); VOID when the escrow closed unpaid. */
const ALLOCATION_MAY_BECOME: Record<AllocationStatus, AllocationStatus[]> = {
  PENDING: ['PENDING', 'HELD', 'VOID'],
  HELD: ['HELD', 'PARTIALLY_RELEASED', 'DISPUTED', 'RELEASED', 'REFUND_PENDING'],
  PARTIALLY_RELEASED: ['PARTIALLY_RELEASED', 'DISPUTED', 'RELEASED', 'REFUND_PENDING'],
  // Resolved: the split's release and refund leave nothing held.
  DISPUTED: ['DISPUTED', 'RELEASED', 'REFUND_PENDING'],
  RELEASED: ['RELEASED'],
  REFUND_PENDING: ['REFUND_PENDING', 'REFUNDED'],
  REFUNDED: ['REFUNDED'],
  VOID: ['VOID'],
};

/** docs/concepts/states.md. */
const ESCROW_MAY_BECOME: Record<EscrowStatus, EscrowStatus[]> = {
  PENDING: ['PENDING', 'HELD', 'FAILED', 'EXPIRED', 'CANCELLED'],
  // Straight to PARTIALLY_REFUNDED when the last money held is released after the refunds of the rest were confirmed.
  HELD: ['HELD', 'PARTIALLY_RELEASED', 'DISPUTED', 'RELEASED', 'REFUND_PENDING', 'REFUNDED', 'PARTIALLY_REFUNDED'],
  PARTIALLY_RELEASED: ['PARTIALLY_RELEASED', 'DISPUTED', 'RELEASED', 'REFUND_PENDING', 'REFUNDED', 'PARTIALLY_REFUNDED'],
  DISPUTED: ['DISPUTED', 'HELD', 'PARTIALLY_RELEASED', 'RELEASED', 'REFUND_PENDING', 'REFUNDED', 'PARTIALLY_REFUNDED'],
  REFUND_PENDING: ['REFUND_PENDING', 'REFUNDED', 'PARTIALLY_REFUNDED'],
  RELEASED: ['RELEASED'],
  FAILED: ['FAILED'],
  EXPIRED: ['EXPIRED'],
  CANCELLED: ['CANCELLED'],
  REFUNDED: ['REFUNDED'],
  PARTIALLY_REFUNDED: ['PARTIALLY_REFUNDED'],
};

const FUNDED: ReadonlySet<AllocationStatus> = new Set(['HELD', 'PARTIALLY_RELEASED', 'DISPUTED', 'RELEASED', 'REFUND_PENDING', 'REFUNDED']);

function assertInvariants(before: EscrowState, after: EscrowState, history: EscrowEvent[]): void {
  const created = after.created!;
  // Money of a funded escrow is always somewhere, to the santim: each allocation's amount is what it
  // holds, what was released of it and what was refunded of it; releases add up to what was released.
  if (after.payment?.paymentReferenceId !== undefined) {
    expect(after.allocations.every((a) => FUNDED.has(a.status))).toBe(true);
    for (const a of after.allocations) {
      expect(allocationHeld(a) + a.released + a.refunded + a.frozen).toBe(a.amount);
      // Only a disputed allocation holds frozen money, and then holds nothing else.
      expect(a.frozen > 0).toBe(a.status === 'DISPUTED');
      if (a.status === 'DISPUTED') expect(allocationHeld(a)).toBe(0);
    }
    const released = sumSantim(after.allocations.map((a) => a.released));
    expect(sumSantim(after.releases.map((r) => r.amount))).toBe(released);
    expect(heldAmount(after) + frozenAmount(after) + released + sumSantim(after.allocations.map((a) => a.refunded))).toBe(created.amount);
    // Frozen money never moves: nothing is released or refunded of a disputed allocation.
    after.allocations.forEach((a, i) => {
      if (before.allocations[i].status === 'DISPUTED' && a.status === 'DISPUTED') expect([a.released, a.refunded]).toEqual([before.allocations[i].released, before.allocations[i].refunded]);
    });
    // An automatic release comes only once its instant has passed.
    for (const r of after.releases.slice(before.releases.length)) if (r.automatic) expect(Date.parse(r.releasedAt)).toBeGreaterThanOrEqual(Date.parse(before.autoReleaseAt!));
  } else {
    expect(after.allocations.some((a) => FUNDED.has(a.status))).toBe(false);
    expect(after.allocations.every((a) => a.released === 0 && a.refunded === 0)).toBe(true);
  }

  // An allocation never goes back, and what was released, refunded or reversed of it never shrinks;
  // only released money is reversed, and the fee given back never passes the fee earned.
  after.allocations.forEach((allocation, i) => {
    expect(ALLOCATION_MAY_BECOME[before.allocations[i].status]).toContain(allocation.status);
    expect(allocation.released).toBeGreaterThanOrEqual(before.allocations[i].released);
    expect(allocation.refunded).toBeGreaterThanOrEqual(before.allocations[i].refunded);
    expect(allocation.reversed).toBeGreaterThanOrEqual(before.allocations[i].reversed);
    expect(allocation.reversed).toBeLessThanOrEqual(allocation.released);
    expect(allocation.feeReturned).toBeLessThanOrEqual(allocation.feeEarned);
  });

  // Terminal statuses never change (each may become only itself); every other move is one docs/concepts/states.md allows.
  expect(ESCROW_MAY_BECOME[before.status]).toContain(after.status);

  // The escrow's status agrees with its allocations.
  const all = (status: AllocationStatus) => after.allocations.every((a) => a.status === status);
  const some = (status: AllocationStatus) => after.allocations.some((a) => a.status === status);
  switch (after.status) {
    case 'PENDING':
      expect(all('PENDING')).toBe(true);
      break;
    case 'HELD':
      // Nothing released yet; a refund asked for may have emptied some allocations.
      expect(heldAmount(after) > 0 && after.allocations.every((a) => a.released === 0)).toBe(true);
      break;
    case 'PARTIALLY_RELEASED':
      expect(after.allocations.some((a) => a.released > 0) && heldAmount(after) > 0).toBe(true);
      break;
    case 'DISPUTED':
      expect(some('DISPUTED')).toBe(true);
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
      // Nothing held, and a refund of its own money still awaited (its allocations may all be RELEASED after a partial refund).
      expect(heldAmount(after) === 0 && after.refunds.some((r) => r.shares.length > 0 && after.payment!.refunds.find((p) => p.refundId === r.refundId)!.status === 'PENDING')).toBe(true);
      break;
    case 'REFUNDED':
      // All of it went back, and nothing is awaited.
      expect(after.allocations.every((a) => a.released === 0) && after.allocations.some((a) => a.refunded > 0) && heldAmount(after) === 0 && !some('REFUND_PENDING')).toBe(true);
      break;
    case 'PARTIALLY_REFUNDED':
      // Some of it went to the merchants and some back (an allocation partly refunded and then released is RELEASED), and nothing is awaited.
      expect(after.allocations.some((a) => a.released > 0) && after.allocations.some((a) => a.refunded > 0) && heldAmount(after) === 0 && !some('REFUND_PENDING')).toBe(true);
      break;
  }

  // The refunds of the escrow's own money (cancellation, asked for, or released money reversed) add
  // up to what its allocations count as refunded and reversed, never more than was paid, each is of
  // something, and there is at most one cancellation.
  const amountOf = (refundId: string) => after.payment!.refunds.find((r) => r.refundId === refundId)!.amount;
  const ownRefunds = after.refunds.filter((r) => r.reason !== 'PAYMENT_REFUSED');
  const refundedToCustomer = sumSantim(ownRefunds.map((r) => amountOf(r.refundId)));
  expect(refundedToCustomer).toBe(sumSantim(after.allocations.map((a) => santim(a.refunded + a.reversed))));
  expect(refundedToCustomer).toBeLessThanOrEqual(created.amount);
  for (const refund of ownRefunds) expect(amountOf(refund.refundId)).toBeGreaterThan(0);
  expect(after.refunds.filter((r) => r.reason === 'CANCELLED').length).toBeLessThanOrEqual(1);
  // An allocation is REFUNDED only once no refund of it is awaited.
  const awaited = new Set(ownRefunds.filter((r) => after.payment!.refunds.find((p) => p.refundId === r.refundId)!.status === 'PENDING').flatMap((r) => r.shares.map((share) => share.merchantId)));
  for (const a of after.allocations) if (a.status === 'REFUNDED') expect(awaited.has(a.merchantId)).toBe(false);
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

/**
 * The outline as escrow.outline.ts first wrote it, with a rest and a spread per allocation: the
 * outline must read the same JSON, key for key, whatever it is built with (callbacks are signed over
 * payloads built from it, and the payable documents are written from it).
 */
function outlineAsSpread(state: EscrowState) {
  if (!state.created || !state.payment) return undefined;
  const shown = (allocation: AllocationState) => {
    const { feeReturnBasis, ...rest } = allocation;
    return { ...rest, held: allocationHeld(allocation) };
  };
  return {
    terms: state.created,
    status: state.status,
    paymentStatus: escrowPaymentStatus(state),
    held: heldAmount(state),
    frozen: frozenAmount(state),
    payment: paymentOutline(state.payment),
    allocations: state.allocations.map(shown),
    releases: state.releases,
    refunds: state.refunds,
    ...(state.autoReleaseAt ? { autoReleaseAt: state.autoReleaseAt } : {}),
  };
}

/** Read once per state and kept: the same outline each time, written as the spread one was. */
function assertOutline(state: EscrowState): void {
  const outline = escrowOutline(state);
  expect(JSON.stringify(outline)).toBe(JSON.stringify(outlineAsSpread(state)));
  expect(escrowOutline(state)).toBe(outline);
}

describe('Escrow properties', () => {
  /** Applies the steps as the command handler does (decide, append only if nothing was thrown), checking the invariants after each. */
  function run(createdEvent: EscrowCreated, steps: Step[]): EscrowEvent[] {
    const history: EscrowEvent[] = [createdEvent];
    let state = fold(escrowDecider, history);
    assertOutline(state);
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
      assertOutline(next);
      state = next;
    }
    expect(fold(escrowDecider, history)).toEqual(state);
    return history;
  }

  it('keeps every invariant through any sequence of commands', () => {
    fc.assert(
      fc.property(anEscrow, fc.array(aStep, { maxLength: 30 }), (createdEvent, steps) => void run(createdEvent, steps)),
      { numRuns: 1_000 },
    );
  });

  it('keeps every invariant when a paid escrow is disputed, resolved with any split, and released automatically', () => {
    const funded: Step = { kind: 'pay', ref: 'pay-1', exact: true, amount: 1, advance: 0 };
    // Every run ends long after any instant a reschedule can set, so what is still held and not
    // disputed is released automatically there (a random walk alone reaches it too rarely to count on).
    const muchLater: Step = { kind: 'releaseDue', advance: 200 * 24 * 60 };
    const resolvedSomewhere = { disputes: 0, resolutions: 0, automatic: 0 };
    fc.assert(
      fc.property(anEscrow, fc.array(aMarketplaceStep, { minLength: 1, maxLength: 20 }), (createdEvent, steps) => {
        const history = run(createdEvent, [funded, ...steps, muchLater]);
        resolvedSomewhere.disputes += history.filter((e) => e.type === 'DisputeOpened').length;
        resolvedSomewhere.resolutions += history.filter((e) => e.type === 'DisputeResolved').length;
        resolvedSomewhere.automatic += history.filter((e) => e.type === 'AllocationReleased' && e.data.automatic).length;
      }),
      { numRuns: 500 },
    );
    // The runs did reach what they are about (each count is about 40 or more in any run; a count this
    // low would mean the steps stopped reaching it).
    expect(Object.values(resolvedSomewhere).every((n) => n >= 5)).toBe(true);
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
          if (command.type === 'RecordRefundFailure') expect(retried.map((e) => e.type)).toEqual(events.map((e) => e.type));
          // A release of part of an allocation, asked again, is another release while money is held:
          // a client's retry of the same one is recognised by its Idempotency-Key, above the decider.
          else if (command.type === 'ReleaseFunds' && command.data.releases.some((r) => r.amount !== undefined)) continue;
          else if (command.type === 'RefundFunds' && command.data.refunds.some((r) => r.amount !== undefined)) continue;
          else if (command.type === 'ReverseAllocation' && command.data.amount !== undefined) continue;
          // Moving the automatic release to the same instant again records the move again.
          else if (command.type === 'RescheduleAutoRelease') expect(retried.map((e) => e.type)).toEqual(events.map((e) => e.type));
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
