import { closePayment, decidePayment, evolvePayment, nextRefundId, openPayment, type PaymentCommand, type PaymentState } from '../payment/payment.decider';
import { PaymentNaming } from '../payment/payment.naming';
import type { Decider } from '../shared/decider';
import { feeShare } from '../shared/fees';
import { addSantim, formatEtb, subtractSantim, sumSantim, type Santim, ZERO } from '../shared/money';
import { assertCurrency } from '../shared/order-terms';
import {
  type AllocationTerms,
  ESCROW_PAYMENT_EVENTS,
  type EscrowCreated,
  type EscrowEvent,
  type EscrowPaymentEvent,
  type EscrowRefundRequest,
  type RefundReason,
} from './escrow.events';
import {
  AllocationAlreadyReleased,
  AllocationNotFound,
  AmountExceedsHeld,
  AllocationSumMismatch,
  DuplicateAllocationMerchant,
  EscrowAlreadyCancelled,
  EscrowClosed,
  EscrowFullyReleased,
  EscrowNotFound,
  EscrowNotFunded,
  EscrowOrderConflict,
  AllocationNotHeld,
  EscrowNothingHeld,
  FeeExceedsAmount,
  AllocationDisputed,
  AllocationNotDisputed,
  AutoReleaseBeforeExpiry,
  AutoReleaseConflict,
  AutoReleaseNotAhead,
  DisputeSplitMismatch,
} from './escrow.errors';

export type EscrowStatus =
  | 'PENDING'
  | 'HELD'
  | 'PARTIALLY_RELEASED'
  | 'DISPUTED'
  | 'RELEASED'
  | 'FAILED'
  | 'EXPIRED'
  | 'CANCELLED'
  | 'REFUND_PENDING'
  | 'REFUNDED';

/** VOID: the escrow closed before it was paid, so this allocation never held money. */
export type AllocationStatus = 'PENDING' | 'HELD' | 'PARTIALLY_RELEASED' | 'DISPUTED' | 'RELEASED' | 'REFUND_PENDING' | 'REFUNDED' | 'VOID';

/**
 * Its money, once paid: `amount = held + released + refunded + frozen` (a refund counts from its
 * request, as in the ledger; `frozen` is what a dispute holds, the allocation DISPUTED meanwhile);
 * `feeEarned` of what was released went to the escrow's creator.
 */
export interface AllocationState extends AllocationTerms {
  status: AllocationStatus;
  released: Santim;
  refunded: Santim;
  feeEarned: Santim;
  frozen: Santim;
  dispute?: { reason: string; openedAt: string };
}

/** The fee earned once `released` of an allocation is released (feeShare: a refund earns none of it). */
export function feeEarnedOn(allocation: AllocationTerms, released: Santim): Santim {
  return feeShare(allocation.fee, allocation.amount, released);
}

/** One release of part or all of an allocation, as the merchant (or, later, the schedule) asked for it. */
export interface EscrowRelease {
  merchantId: string;
  amount: Santim;
  fee: Santim;
  releasedAt: string;
  automatic?: true;
}

/** Which allocations a refund returns, and why (the payment's own record of it has the amount). */
export interface EscrowRefund {
  refundId: string;
  reason: RefundReason;
  /** How much of each allocation it returns (none for a refused payment). */
  shares: { merchantId: string; amount: Santim }[];
  /** The merchant's words, for a refund it asked for. */
  note?: string;
}

/** An escrow is a payment plus allocations. */
export interface EscrowState {
  created?: EscrowCreated['data'];
  status: EscrowStatus;
  allocations: AllocationState[];
  payment?: PaymentState;
  refunds: EscrowRefund[];
  releases: EscrowRelease[];
  /** When what is still held will be released unasked (from creation, payment or the merchant's move). */
  autoReleaseAt?: string;
}

/** Part of an allocation to release or refund; without an amount, all it still holds. */
export interface ReleaseRequest {
  merchantId: string;
  amount?: Santim;
}

/** `merchantId` is the merchant asking: another merchant's escrow is, to it, an escrow that does not exist. */
export type EscrowCommand =
  | { type: 'CreateEscrow'; data: EscrowCreated['data'] }
  | { type: 'ReleaseFunds'; data: { escrowId: string; merchantId: string; releases: ReleaseRequest[]; at: string } }
  | { type: 'CancelEscrow'; data: { escrowId: string; merchantId: string; reason?: string; at: string } }
  | { type: 'RefundFunds'; data: { escrowId: string; merchantId: string; refunds: ReleaseRequest[]; note: string; at: string } }
  | { type: 'RescheduleAutoRelease'; data: { escrowId: string; merchantId: string; autoReleaseAt: string | null; at: string } }
  /** The scheduler's, at the automatic release instant: releases whatever is held and not frozen. */
  | { type: 'ReleaseDue'; data: { escrowId: string; at: string } }
  /** `allocation`: the merchant whose allocation is disputed; without it, every allocation that holds money. */
  | { type: 'OpenDispute'; data: { escrowId: string; merchantId: string; allocation?: string; reason: string; at: string } }
  | { type: 'ResolveDispute'; data: { escrowId: string; merchantId: string; resolutions: DisputeSplit[]; note?: string; at: string } }
  | PaymentCommand;

/** How a disputed allocation's frozen money is split; without `merchantId`, the escrow's only disputed allocation. */
export interface DisputeSplit {
  merchantId?: string;
  release: Santim;
  refund: Santim;
}

export const ESCROW_PAYMENT = new PaymentNaming<EscrowEvent, EscrowPaymentEvent>(ESCROW_PAYMENT_EVENTS, (request) => ({
  ...request,
  merchantIds: [],
  reason: 'PAYMENT_REFUSED',
}));

export const ESCROW_EVENT_TYPES: ReadonlySet<string> = new Set([
  'EscrowCreated',
  'AllocationReleased',
  'EscrowCancelled',
  'AutoReleaseRescheduled',
  'DisputeOpened',
  'DisputeResolved',
  ...ESCROW_PAYMENT.types,
]);

const DAY_MS = 24 * 60 * 60 * 1000;
/** How far ahead an automatic release may be set. */
export const AUTO_RELEASE_MAX_DAYS = 365;

const TERMINAL: ReadonlySet<EscrowStatus> = new Set(['RELEASED', 'FAILED', 'EXPIRED', 'CANCELLED', 'REFUNDED']);

export function isTerminal(status: EscrowStatus): boolean {
  return TERMINAL.has(status);
}

/** What an allocation still holds: paid, and neither released nor refunded yet. */
export function allocationHeld(allocation: AllocationState): Santim {
  if (allocation.status !== 'HELD' && allocation.status !== 'PARTIALLY_RELEASED') return ZERO;
  return subtractSantim(allocation.amount, addSantim(allocation.released, allocation.refunded));
}

export function heldAmount(state: EscrowState): Santim {
  return sumSantim(state.allocations.map(allocationHeld));
}

/** What disputes hold: still the escrow's money, in its account, but no one's to move. */
export function frozenAmount(state: EscrowState): Santim {
  return sumSantim(state.allocations.map((a) => a.frozen));
}

/** The payment status an escrow reports through verify (docs/concepts/states.md): its money arrived, whatever became of it since. */
export function escrowPaymentStatus(state: EscrowState): string {
  switch (state.status) {
    case 'HELD':
    case 'PARTIALLY_RELEASED':
    case 'DISPUTED':
    case 'RELEASED':
    case 'REFUND_PENDING':
      return 'PAID';
    default:
      return state.status;
  }
}

function withAllocations(allocations: AllocationState[], select: (a: AllocationState) => boolean, status: AllocationStatus): AllocationState[] {
  return allocations.map((a) => (select(a) ? { ...a, status } : a));
}

const every = () => true;

/** The escrow's own refunds (not a refused payment's) the provider has not confirmed yet. */
function awaitedRefunds(refunds: EscrowRefund[], payment: PaymentState): EscrowRefund[] {
  return refunds.filter((r) => r.shares.length > 0 && payment.refunds.some((p) => p.refundId === r.refundId && p.status === 'PENDING'));
}

/**
 * A funded escrow's status, from its allocations: DISPUTED while a dispute freezes any of them; HELD
 * until something is released, PARTIALLY_RELEASED while anything is still held after that; once
 * nothing is held, RELEASED if all of it went to the merchants, otherwise REFUND_PENDING until its
 * refunds are confirmed, then REFUNDED.
 */
function fundedStatus(allocations: AllocationState[], refunds: EscrowRefund[], payment: PaymentState): EscrowStatus {
  if (allocations.some((a) => a.frozen > 0)) return 'DISPUTED';
  if (allocations.some((a) => allocationHeld(a) > 0)) return allocations.some((a) => a.released > 0) ? 'PARTIALLY_RELEASED' : 'HELD';
  if (allocations.every((a) => a.refunded === 0)) return 'RELEASED';
  return awaitedRefunds(refunds, payment).length > 0 ? 'REFUND_PENDING' : 'REFUNDED';
}

/**
 * How much a refund takes from each allocation it names. A cancellation's event does not say: it
 * takes all they held, which the history before it knows.
 */
function refundShares(state: EscrowState, request: EscrowRefundRequest): Map<string, Santim> {
  if (request.allocations) return new Map(request.allocations.map((a) => [a.merchantId, a.amount]));
  const named = new Set(request.merchantIds);
  return new Map(state.allocations.filter((a) => named.has(a.merchantId)).map((a) => [a.merchantId, allocationHeld(a)]));
}

/** What a payment fact does to the escrow besides its payment: funds or voids the allocations, refunds them. */
function afterPayment(state: EscrowState, event: EscrowPaymentEvent): EscrowState {
  if (!state.payment) return state;
  const next = { ...state, payment: evolvePayment(state.payment, ESCROW_PAYMENT.fact(event)) };
  switch (event.type) {
    case 'EscrowFunded': {
      const days = state.created?.releaseAfterDays;
      const autoReleaseAt = days ? new Date(Date.parse(event.data.paidAt) + days * DAY_MS).toISOString() : state.autoReleaseAt;
      return { ...next, status: 'HELD', allocations: withAllocations(state.allocations, every, 'HELD'), ...(autoReleaseAt ? { autoReleaseAt } : {}) };
    }
    case 'EscrowPaymentFailed':
      return { ...next, status: 'FAILED', allocations: withAllocations(state.allocations, every, 'VOID') };
    case 'EscrowExpired':
      return { ...next, status: 'EXPIRED', allocations: withAllocations(state.allocations, every, 'VOID') };
    case 'EscrowRefundRequested': {
      const { refundId, reason, note } = event.data;
      // A refused payment never was the escrow's: its refund moves no allocation.
      if (reason !== 'CANCELLED' && reason !== 'REQUESTED') return { ...next, refunds: [...state.refunds, { refundId, reason, shares: [] }] };
      const shares = refundShares(state, event.data);
      const refunds = [...state.refunds, { refundId, reason, shares: [...shares].map(([merchantId, amount]) => ({ merchantId, amount })), ...(note ? { note } : {}) }];
      const allocations = state.allocations.map((a) => {
        const share = shares.get(a.merchantId);
        if (share === undefined) return a;
        const after = { ...a, refunded: addSantim(a.refunded, share) };
        return allocationHeld(after) === 0 ? { ...after, status: 'REFUND_PENDING' as const } : after;
      });
      return { ...next, status: fundedStatus(allocations, refunds, next.payment!), allocations, refunds };
    }
    case 'EscrowRefundCompleted': {
      const refund = state.refunds.find((r) => r.refundId === event.data.refundId);
      if (!refund || refund.shares.length === 0) return next;
      // An allocation is REFUNDED once no refund of it is still awaited.
      const awaited = new Set(awaitedRefunds(state.refunds, next.payment!).flatMap((r) => r.shares.map((s) => s.merchantId)));
      const allocations = withAllocations(state.allocations, (a) => a.status === 'REFUND_PENDING' && !awaited.has(a.merchantId), 'REFUNDED');
      return { ...next, status: fundedStatus(allocations, state.refunds, next.payment!), allocations };
    }
    default:
      return next;
  }
}

function evolve(state: EscrowState, event: EscrowEvent): EscrowState {
  if (ESCROW_PAYMENT.is(event)) return afterPayment(state, event);
  switch (event.type) {
    case 'EscrowCreated': {
      const { escrowId: payableId, amount, expiresAt } = event.data;
      return {
        created: event.data,
        status: 'PENDING',
        allocations: event.data.allocations.map((a) => ({ ...a, status: 'PENDING', released: ZERO, refunded: ZERO, feeEarned: ZERO, frozen: ZERO })),
        payment: openPayment({ payableId, amount, expiresAt }),
        refunds: [],
        releases: [],
        ...(event.data.autoReleaseAt ? { autoReleaseAt: event.data.autoReleaseAt } : {}),
      };
    }
    case 'AutoReleaseRescheduled':
      return { ...state, autoReleaseAt: event.data.autoReleaseAt ?? undefined };
    case 'DisputeOpened': {
      const named = new Set(event.data.merchantIds);
      const allocations = state.allocations.map((a) =>
        named.has(a.merchantId) ? { ...a, frozen: allocationHeld(a), status: 'DISPUTED' as const, dispute: { reason: event.data.reason, openedAt: event.data.openedAt } } : a,
      );
      return { ...state, allocations, status: fundedStatus(allocations, state.refunds, state.payment!) };
    }
    case 'DisputeResolved': {
      // Unfrozen, the money is held again, for the release and refund that follow in the same append.
      const resolved = new Set(event.data.resolutions.map((r) => r.merchantId));
      const allocations = state.allocations.map((a) => {
        if (!resolved.has(a.merchantId)) return a;
        return { ...a, frozen: ZERO, dispute: undefined, status: a.released > 0 ? ('PARTIALLY_RELEASED' as const) : ('HELD' as const) };
      });
      return { ...state, allocations, status: fundedStatus(allocations, state.refunds, state.payment!) };
    }
    case 'AllocationReleased': {
      const { merchantId, amount, releasedAt, automatic } = event.data;
      const fee = event.data.fee ?? ZERO;
      const allocations = state.allocations.map((a) => {
        if (a.merchantId !== merchantId) return a;
        const released = addSantim(a.released, amount);
        // Emptied by this release (what a refund took before is gone too): RELEASED.
        const status = addSantim(released, a.refunded) === a.amount ? ('RELEASED' as const) : ('PARTIALLY_RELEASED' as const);
        return { ...a, released, feeEarned: addSantim(a.feeEarned, fee), status };
      });
      const status = fundedStatus(allocations, state.refunds, state.payment!);
      return { ...state, allocations, status, releases: [...state.releases, { merchantId, amount, fee, releasedAt, ...(automatic ? { automatic } : {}) }] };
    }
    case 'EscrowCancelled':
      if (state.status !== 'PENDING') return state;
      return {
        ...state,
        status: 'CANCELLED',
        allocations: withAllocations(state.allocations, every, 'VOID'),
        payment: state.payment && closePayment(state.payment),
      };
  }
}

/** Bad input gets the same answer on a first request and on a retry, so it is judged before the history. */
function decideCreate(data: EscrowCreated['data'], state: EscrowState): EscrowEvent[] {
  assertCurrency(data.currency);
  assertDistinct(data.allocations);
  for (const allocation of data.allocations) {
    if (allocation.fee !== undefined && allocation.fee > allocation.amount) throw new FeeExceedsAmount(allocation.merchantId);
  }
  const total = sumSantim(data.allocations.map((a) => a.amount));
  if (total !== data.amount) throw new AllocationSumMismatch(formatEtb(data.amount), formatEtb(total));
  if (data.autoReleaseAt !== undefined) {
    if (data.releaseAfterDays !== undefined) throw new AutoReleaseConflict();
    if (Date.parse(data.autoReleaseAt) <= Date.parse(data.expiresAt)) throw new AutoReleaseBeforeExpiry();
    assertAhead(data.autoReleaseAt, data.createdAt);
  }
  if (state.created) {
    // The escrow's id derives from the merchant's orderId: the same request again is answered with the escrow it made.
    if (state.created.requestFingerprint === data.requestFingerprint) return [];
    throw new EscrowOrderConflict(data.orderId);
  }
  return [{ type: 'EscrowCreated', data }];
}

function owned(state: EscrowState, command: { escrowId: string; merchantId: string }): EscrowCreated['data'] {
  if (!state.created || state.created.merchantId !== command.merchantId) throw new EscrowNotFound(command.escrowId);
  return state.created;
}

/** Each merchant once in an escrow's allocations, and in a release or a refund (two parts of one allocation would be judged against the same held amount). */
function assertDistinct(requests: readonly { merchantId: string }[]): void {
  const seen = new Set<string>();
  for (const { merchantId } of requests) {
    if (seen.has(merchantId)) throw new DuplicateAllocationMerchant(merchantId);
    seen.add(merchantId);
  }
}

/** An automatic release is in the future and at most AUTO_RELEASE_MAX_DAYS ahead of `now`. */
function assertAhead(autoReleaseAt: string, now: string): void {
  const at = Date.parse(autoReleaseAt);
  const limit = Date.parse(now) + AUTO_RELEASE_MAX_DAYS * DAY_MS;
  if (at <= Date.parse(now) || at > limit) throw new AutoReleaseNotAhead(new Date(limit).toISOString());
}

/** How much of an allocation's held money a release or refund takes (`amount`, or all of it), or why it cannot. */
function take(state: EscrowState, { merchantId, amount }: ReleaseRequest): Santim {
  if (state.status === 'PENDING') throw new EscrowNotFunded();
  if (state.status === 'FAILED' || state.status === 'EXPIRED') throw new EscrowClosed(state.status);
  const allocation = state.allocations.find((a) => a.merchantId === merchantId);
  if (!allocation) throw new AllocationNotFound(merchantId);
  if (allocation.status === 'DISPUTED') throw new AllocationDisputed(merchantId);
  if (allocation.status === 'RELEASED') throw new AllocationAlreadyReleased(merchantId);
  if (state.status === 'CANCELLED' || state.refunds.some((r) => r.reason === 'CANCELLED')) throw new EscrowAlreadyCancelled();
  const held = allocationHeld(allocation);
  if (held === 0) throw new AllocationNotHeld(merchantId);
  if (amount !== undefined && amount > held) throw new AmountExceedsHeld(merchantId, formatEtb(amount), formatEtb(held));
  return amount ?? held;
}

/** The releases of what each request takes from an allocation, with the fee each earns. */
function releasesOf(state: EscrowState, requests: readonly ReleaseRequest[], at: string, automatic = false): EscrowEvent[] {
  assertDistinct(requests);
  return requests.map((request) => {
    const amount = take(state, request);
    const allocation = state.allocations.find((a) => a.merchantId === request.merchantId)!;
    const fee = subtractSantim(feeEarnedOn(allocation, addSantim(allocation.released, amount)), allocation.feeEarned);
    return {
      type: 'AllocationReleased',
      data: { merchantId: request.merchantId, amount, ...(allocation.fee ? { fee } : {}), releasedAt: at, ...(automatic ? { automatic: true as const } : {}) },
    };
  });
}

/** One refund through the provider of what each request takes from an allocation. */
function refundOf(state: EscrowState, requests: readonly ReleaseRequest[], note: string | undefined, at: string): EscrowEvent {
  assertDistinct(requests);
  const allocations = requests.map((request) => ({ merchantId: request.merchantId, amount: take(state, request) }));
  const payment = state.payment!;
  return {
    type: 'EscrowRefundRequested',
    data: {
      refundId: nextRefundId(payment),
      amount: sumSantim(allocations.map((a) => a.amount)),
      merchantIds: allocations.map((a) => a.merchantId),
      reason: 'REQUESTED',
      allocations,
      ...(note !== undefined ? { note } : {}),
      paymentReferenceId: payment.paymentReferenceId ?? '',
      requestedAt: at,
    },
  };
}

/** Each request releases part or all of what one allocation still holds; all of them, or none. */
function decideRelease(data: Extract<EscrowCommand, { type: 'ReleaseFunds' }>['data'], state: EscrowState): EscrowEvent[] {
  owned(state, data);
  return releasesOf(state, data.releases, data.at);
}

/** One refund through the provider of part or all of what the named allocations hold; the others stay held. */
function decideRefund(data: Extract<EscrowCommand, { type: 'RefundFunds' }>['data'], state: EscrowState): EscrowEvent[] {
  owned(state, data);
  return [refundOf(state, data.refunds, data.note, data.at)];
}

/** At the instant (and only then), everything still held and not frozen is released, as if asked; before it, or once nothing is held, nothing. */
function decideReleaseDue(data: Extract<EscrowCommand, { type: 'ReleaseDue' }>['data'], state: EscrowState): EscrowEvent[] {
  if (!state.autoReleaseAt || Date.parse(data.at) < Date.parse(state.autoReleaseAt)) return [];
  if (state.refunds.some((r) => r.reason === 'CANCELLED')) return [];
  const held = state.allocations.filter((a) => allocationHeld(a) > 0).map((a) => ({ merchantId: a.merchantId }));
  return releasesOf(state, held, data.at, true);
}

function decideReschedule(data: Extract<EscrowCommand, { type: 'RescheduleAutoRelease' }>['data'], state: EscrowState): EscrowEvent[] {
  owned(state, data);
  if (state.status === 'PENDING') throw new EscrowNotFunded();
  if (state.status === 'FAILED' || state.status === 'EXPIRED') throw new EscrowClosed(state.status);
  if (heldAmount(state) === 0) throw new EscrowNothingHeld();
  if (data.autoReleaseAt !== null) assertAhead(data.autoReleaseAt, data.at);
  return [{ type: 'AutoReleaseRescheduled', data: { autoReleaseAt: data.autoReleaseAt, rescheduledAt: data.at } }];
}

/** Freezes what one allocation, or each allocation that holds money, holds. */
function decideDispute(data: Extract<EscrowCommand, { type: 'OpenDispute' }>['data'], state: EscrowState): EscrowEvent[] {
  owned(state, data);
  let merchantIds: string[];
  if (data.allocation !== undefined) {
    take(state, { merchantId: data.allocation });
    merchantIds = [data.allocation];
  } else {
    if (state.status === 'PENDING') throw new EscrowNotFunded();
    if (state.status === 'FAILED' || state.status === 'EXPIRED') throw new EscrowClosed(state.status);
    merchantIds = state.allocations.filter((a) => allocationHeld(a) > 0).map((a) => a.merchantId);
    if (merchantIds.length === 0) throw new EscrowNothingHeld();
  }
  return [{ type: 'DisputeOpened', data: { merchantIds, reason: data.reason, openedAt: data.at } }];
}

/**
 * Each disputed allocation's frozen money is split between its merchant and the customer; the two
 * parts add up to what was frozen. One append: the dispute's end, the releases, one refund.
 */
function decideResolve(data: Extract<EscrowCommand, { type: 'ResolveDispute' }>['data'], state: EscrowState): EscrowEvent[] {
  owned(state, data);
  const disputed = state.allocations.filter((a) => a.status === 'DISPUTED');
  const resolutions = data.resolutions.map((split) => {
    const merchantId = split.merchantId ?? (disputed.length === 1 ? disputed[0].merchantId : undefined);
    if (merchantId === undefined) throw new AllocationNotDisputed(disputed.length === 0 ? 'of this escrow' : '(name it: several are disputed)');
    const allocation = state.allocations.find((a) => a.merchantId === merchantId);
    if (!allocation) throw new AllocationNotFound(merchantId);
    if (allocation.status !== 'DISPUTED') throw new AllocationNotDisputed(merchantId);
    const total = addSantim(split.release, split.refund);
    if (total !== allocation.frozen) throw new DisputeSplitMismatch(merchantId, formatEtb(allocation.frozen), formatEtb(total));
    return { merchantId, release: split.release, refund: split.refund };
  });
  assertDistinct(resolutions);
  const resolved: EscrowEvent = { type: 'DisputeResolved', data: { resolutions, ...(data.note ? { note: data.note } : {}), resolvedAt: data.at } };
  const unfrozen = evolve(state, resolved);
  const releases = releasesOf(unfrozen, resolutions.filter((r) => r.release > 0).map((r) => ({ merchantId: r.merchantId, amount: r.release })), data.at);
  const afterReleases = releases.reduce(evolve, unfrozen);
  const refunds = resolutions.filter((r) => r.refund > 0).map((r) => ({ merchantId: r.merchantId, amount: r.refund }));
  return [resolved, ...releases, ...(refunds.length > 0 ? [refundOf(afterReleases, refunds, data.note ?? 'dispute resolved', data.at)] : [])];
}

function decideCancel(data: Extract<EscrowCommand, { type: 'CancelEscrow' }>['data'], state: EscrowState): EscrowEvent[] {
  owned(state, data);
  const { reason, at } = data;
  switch (state.status) {
    case 'DISPUTED':
      throw new AllocationDisputed(state.allocations.find((a) => a.status === 'DISPUTED')!.merchantId);
    case 'PENDING':
      return [{ type: 'EscrowCancelled', data: { reason, cancelledAt: at } }];
    case 'HELD':
    case 'PARTIALLY_RELEASED': {
      const held = state.allocations.filter((a) => allocationHeld(a) > 0);
      const payment = state.payment!;
      return [
        { type: 'EscrowCancelled', data: { reason, cancelledAt: at } },
        {
          type: 'EscrowRefundRequested',
          data: {
            refundId: nextRefundId(payment),
            amount: heldAmount(state),
            merchantIds: held.map((a) => a.merchantId),
            reason: 'CANCELLED',
            paymentReferenceId: payment.paymentReferenceId ?? '',
            requestedAt: at,
          },
        },
      ];
    }
    case 'RELEASED':
      throw new EscrowFullyReleased();
    case 'CANCELLED':
    case 'REFUND_PENDING':
    case 'REFUNDED':
      // Emptied by refunds the merchant asked for, rather than by a cancellation.
      if (state.status !== 'CANCELLED' && !state.refunds.some((r) => r.reason === 'CANCELLED')) throw new EscrowNothingHeld();
      throw new EscrowAlreadyCancelled();
    case 'FAILED':
    case 'EXPIRED':
      throw new EscrowClosed(state.status);
  }
}

function decide(command: EscrowCommand, state: EscrowState): EscrowEvent[] {
  switch (command.type) {
    case 'CreateEscrow':
      return decideCreate(command.data, state);
    case 'ReleaseFunds':
      return decideRelease(command.data, state);
    case 'RefundFunds':
      return decideRefund(command.data, state);
    case 'CancelEscrow':
      return decideCancel(command.data, state);
    case 'RescheduleAutoRelease':
      return decideReschedule(command.data, state);
    case 'ReleaseDue':
      return decideReleaseDue(command.data, state);
    case 'OpenDispute':
      return decideDispute(command.data, state);
    case 'ResolveDispute':
      return decideResolve(command.data, state);
    default:
      if (!state.payment) throw new EscrowNotFound('unknown');
      return decidePayment(command, state.payment, state.status).map((fact) => ESCROW_PAYMENT.event(fact));
  }
}

export const escrowDecider: Decider<EscrowCommand, EscrowEvent, EscrowState> = {
  initialState: () => ({ status: 'PENDING', allocations: [], refunds: [], releases: [] }),
  evolve,
  decide,
};
