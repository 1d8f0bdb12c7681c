import type { Decider } from '../shared/decider';
import { formatEtb, sumSantim, type Santim } from '../shared/money';
import { assertCurrency } from '../shared/order-terms';
import { assertPayable, type PaymentAttempt } from '../shared/payment-errors';
import type { AllocationTerms, EscrowCreated, EscrowEvent, RefundReason } from './escrow.events';
import {
  AllocationAlreadyReleased,
  AllocationNotFound,
  AllocationSumMismatch,
  DuplicateAllocationMerchant,
  EscrowAlreadyCancelled,
  EscrowAlreadyExists,
  EscrowClosed,
  EscrowFullyReleased,
  EscrowNotFound,
  EscrowNotFunded,
  UnknownRefund,
} from './escrow.errors';

export type EscrowStatus =
  | 'PENDING'
  | 'HELD'
  | 'PARTIALLY_RELEASED'
  | 'RELEASED'
  | 'FAILED'
  | 'EXPIRED'
  | 'CANCELLED'
  | 'REFUND_PENDING'
  | 'REFUNDED';

/** VOID: the escrow closed before it was paid, so this allocation never held money. */
export type AllocationStatus = 'PENDING' | 'HELD' | 'RELEASED' | 'REFUND_PENDING' | 'REFUNDED' | 'VOID';

export interface AllocationState extends AllocationTerms {
  status: AllocationStatus;
}

export interface RefundState {
  refundId: string;
  amount: Santim;
  reason: RefundReason;
  merchantIds: string[];
  paymentReferenceId: string;
  status: 'PENDING' | 'COMPLETED';
}

export interface EscrowState {
  created?: EscrowCreated['data'];
  status: EscrowStatus;
  allocations: AllocationState[];
  paymentReferenceId?: string;
  lastPaymentAttempt?: PaymentAttempt;
  paidAt?: string;
  failureReason?: string;
  /** Every payment reference seen, so a repeated provider notification changes nothing. */
  seenPayments: string[];
  refunds: RefundState[];
}

export type EscrowCommand =
  | { type: 'CreateEscrow'; data: EscrowCreated['data'] }
  | { type: 'InitiateEscrowPayment'; data: Omit<PaymentAttempt, 'initiatedAt'> & { at: string } }
  | { type: 'RecordEscrowPayment'; data: { externalReferenceId: string; paymentType: string; amount: Santim; at: string } }
  | { type: 'RecordEscrowPaymentFailure'; data: { externalReferenceId?: string; reason: string; at: string } }
  | { type: 'ExpireEscrow'; data: { at: string } }
  | { type: 'ReleaseAllocation'; data: { merchantId: string; at: string } }
  | { type: 'CancelEscrow'; data: { reason?: string; at: string } }
  | { type: 'RecordEscrowRefundFailure'; data: { refundId: string; reason: string; at: string } }
  | { type: 'CompleteEscrowRefund'; data: { refundId: string; externalReferenceId: string; at: string } };

const TERMINAL: ReadonlySet<EscrowStatus> = new Set(['RELEASED', 'FAILED', 'EXPIRED', 'CANCELLED', 'REFUNDED']);

export function isTerminal(status: EscrowStatus): boolean {
  return TERMINAL.has(status);
}

export function heldAmount(state: EscrowState): Santim {
  return sumSantim(state.allocations.filter((a) => a.status === 'HELD').map((a) => a.amount));
}

function releasedStatus(allocations: AllocationState[]): EscrowStatus {
  return allocations.every((a) => a.status === 'RELEASED') ? 'RELEASED' : 'PARTIALLY_RELEASED';
}

function setAllocations(
  allocations: AllocationState[],
  select: (a: AllocationState) => boolean,
  status: AllocationStatus,
): AllocationState[] {
  return allocations.map((a) => (select(a) ? { ...a, status } : a));
}

function evolve(state: EscrowState, event: EscrowEvent): EscrowState {
  switch (event.type) {
    case 'EscrowCreated':
      return {
        ...state,
        created: event.data,
        status: 'PENDING',
        allocations: event.data.allocations.map((a) => ({ ...a, status: 'PENDING' })),
      };
    case 'EscrowPaymentInitiated':
      return { ...state, lastPaymentAttempt: event.data };
    case 'EscrowFunded':
      return {
        ...state,
        status: 'HELD',
        paymentReferenceId: event.data.externalReferenceId,
        paidAt: event.data.paidAt,
        seenPayments: [...state.seenPayments, event.data.externalReferenceId],
        allocations: setAllocations(state.allocations, () => true, 'HELD'),
      };
    case 'EscrowPaymentFailed':
      return {
        ...state,
        failureReason: event.data.reason,
        status: 'FAILED',
        allocations: setAllocations(state.allocations, () => true, 'VOID'),
      };
    case 'EscrowExpired':
      return { ...state, status: 'EXPIRED', allocations: setAllocations(state.allocations, () => true, 'VOID') };
    case 'AllocationReleased': {
      const allocations = setAllocations(state.allocations, (a) => a.merchantId === event.data.merchantId, 'RELEASED');
      return { ...state, allocations, status: releasedStatus(allocations) };
    }
    case 'EscrowCancelled':
      return {
        ...state,
        status: state.status === 'PENDING' ? 'CANCELLED' : state.status,
        allocations: state.status === 'PENDING' ? setAllocations(state.allocations, () => true, 'VOID') : state.allocations,
      };
    case 'EscrowPaymentRefused':
      return { ...state, seenPayments: [...state.seenPayments, event.data.externalReferenceId] };
    case 'EscrowRefundRequested': {
      const refunded = new Set(event.data.merchantIds);
      const isCancelRefund = event.data.reason === 'CANCELLED';
      return {
        ...state,
        status: isCancelRefund ? 'REFUND_PENDING' : state.status,
        allocations: setAllocations(state.allocations, (a) => refunded.has(a.merchantId), 'REFUND_PENDING'),
        refunds: [
          ...state.refunds,
          { ...event.data, status: 'PENDING' },
        ],
      };
    }
    case 'EscrowRefundFailed':
      return state;
    case 'EscrowRefundCompleted': {
      const refund = state.refunds.find((r) => r.refundId === event.data.refundId);
      if (!refund) return state;
      const refunded = new Set(refund.merchantIds);
      return {
        ...state,
        status: refund.reason === 'CANCELLED' ? 'REFUNDED' : state.status,
        allocations: setAllocations(state.allocations, (a) => refunded.has(a.merchantId), 'REFUNDED'),
        refunds: state.refunds.map((r) => (r.refundId === refund.refundId ? { ...r, status: 'COMPLETED' } : r)),
      };
    }
  }
}

function requireCreated(state: EscrowState, escrowId = 'unknown'): EscrowCreated['data'] {
  if (!state.created) throw new EscrowNotFound(escrowId);
  return state.created;
}

/** Refund ids are derived from the stream, so deciding stays pure and a retried command cannot mint a second id. */
function nextRefundId(state: EscrowState, escrowId: string): string {
  return `${escrowId}-refund-${state.refunds.length + 1}`;
}

function decideCreate(data: EscrowCreated['data'], state: EscrowState): EscrowEvent[] {
  if (state.created) throw new EscrowAlreadyExists(data.escrowId);
  assertCurrency(data.currency);
  const seen = new Set<string>();
  for (const allocation of data.allocations) {
    if (seen.has(allocation.merchantId)) throw new DuplicateAllocationMerchant(allocation.merchantId);
    seen.add(allocation.merchantId);
  }
  const total = sumSantim(data.allocations.map((a) => a.amount));
  if (total !== data.amount) throw new AllocationSumMismatch(formatEtb(data.amount), formatEtb(total));
  return [{ type: 'EscrowCreated', data }];
}

function decidePayment(
  data: Extract<EscrowCommand, { type: 'RecordEscrowPayment' }>['data'],
  state: EscrowState,
): EscrowEvent[] {
  const created = requireCreated(state);
  if (state.seenPayments.includes(data.externalReferenceId)) return [];
  const inTime = Date.parse(data.at) < Date.parse(created.expiresAt);
  if (state.status === 'PENDING' && inTime && data.amount === created.amount) {
    return [{ type: 'EscrowFunded', data: { externalReferenceId: data.externalReferenceId, paymentType: data.paymentType, amount: data.amount, paidAt: data.at } }];
  }
  // Money moved but the escrow cannot take it (expired, closed, already paid or a wrong amount): send it back.
  // A late payment expires the escrow whatever its amount, as for a plain order.
  const expiresNow = state.status === 'PENDING' && !inTime;
  const reason = expiresNow ? 'EXPIRED' : state.status === 'PENDING' ? 'AMOUNT_MISMATCH' : state.status;
  return [
    ...(expiresNow ? [{ type: 'EscrowExpired' as const, data: { expiredAt: created.expiresAt } }] : []),
    { type: 'EscrowPaymentRefused', data: { externalReferenceId: data.externalReferenceId, amount: data.amount, reason, receivedAt: data.at } },
    {
      type: 'EscrowRefundRequested',
      data: {
        refundId: nextRefundId(state, created.escrowId),
        amount: data.amount,
        merchantIds: [],
        reason: 'PAYMENT_REFUSED',
        paymentReferenceId: data.externalReferenceId,
        requestedAt: data.at,
      },
    },
  ];
}

function decideRelease(merchantId: string, at: string, state: EscrowState): EscrowEvent[] {
  requireCreated(state);
  const allocation = state.allocations.find((a) => a.merchantId === merchantId);
  switch (state.status) {
    case 'PENDING':
      throw new EscrowNotFunded();
    case 'FAILED':
    case 'EXPIRED':
      throw new EscrowClosed(state.status);
    case 'CANCELLED':
    case 'REFUND_PENDING':
    case 'REFUNDED':
      if (!allocation) throw new AllocationNotFound(merchantId);
      if (allocation.status === 'RELEASED') throw new AllocationAlreadyReleased(merchantId);
      throw new EscrowAlreadyCancelled();
    case 'HELD':
    case 'PARTIALLY_RELEASED':
    case 'RELEASED':
      if (!allocation) throw new AllocationNotFound(merchantId);
      if (allocation.status === 'RELEASED') throw new AllocationAlreadyReleased(merchantId);
      return [{ type: 'AllocationReleased', data: { merchantId, amount: allocation.amount, releasedAt: at } }];
  }
}

function decideCancel(reason: string | undefined, at: string, state: EscrowState): EscrowEvent[] {
  const created = requireCreated(state);
  switch (state.status) {
    case 'PENDING':
      return [{ type: 'EscrowCancelled', data: { reason, cancelledAt: at } }];
    case 'HELD':
    case 'PARTIALLY_RELEASED': {
      const held = state.allocations.filter((a) => a.status === 'HELD');
      return [
        { type: 'EscrowCancelled', data: { reason, cancelledAt: at } },
        {
          type: 'EscrowRefundRequested',
          data: {
            refundId: nextRefundId(state, created.escrowId),
            amount: sumSantim(held.map((a) => a.amount)),
            merchantIds: held.map((a) => a.merchantId),
            reason: 'CANCELLED',
            paymentReferenceId: state.paymentReferenceId ?? '',
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
      throw new EscrowAlreadyCancelled();
    case 'FAILED':
    case 'EXPIRED':
      throw new EscrowClosed(state.status);
  }
}

function pendingRefund(state: EscrowState, refundId: string): RefundState | undefined {
  const refund = state.refunds.find((r) => r.refundId === refundId);
  if (!refund) throw new UnknownRefund(refundId);
  return refund.status === 'PENDING' ? refund : undefined;
}

function decide(command: EscrowCommand, state: EscrowState): EscrowEvent[] {
  switch (command.type) {
    case 'CreateEscrow':
      return decideCreate(command.data, state);
    case 'InitiateEscrowPayment': {
      const created = requireCreated(state);
      assertPayable(state.status, created.expiresAt, command.data.at);
      const { at, ...attempt } = command.data;
      return [{ type: 'EscrowPaymentInitiated', data: { ...attempt, initiatedAt: at } }];
    }
    case 'RecordEscrowPayment':
      return decidePayment(command.data, state);
    case 'RecordEscrowPaymentFailure':
      requireCreated(state);
      if (state.status !== 'PENDING') return [];
      return [{ type: 'EscrowPaymentFailed', data: { externalReferenceId: command.data.externalReferenceId, reason: command.data.reason, failedAt: command.data.at } }];
    case 'ExpireEscrow': {
      const created = requireCreated(state);
      if (state.status !== 'PENDING' || Date.parse(command.data.at) < Date.parse(created.expiresAt)) return [];
      return [{ type: 'EscrowExpired', data: { expiredAt: created.expiresAt } }];
    }
    case 'ReleaseAllocation':
      return decideRelease(command.data.merchantId, command.data.at, state);
    case 'CancelEscrow':
      return decideCancel(command.data.reason, command.data.at, state);
    case 'RecordEscrowRefundFailure':
      requireCreated(state);
      if (!pendingRefund(state, command.data.refundId)) return [];
      return [{ type: 'EscrowRefundFailed', data: { refundId: command.data.refundId, reason: command.data.reason, failedAt: command.data.at } }];
    case 'CompleteEscrowRefund':
      requireCreated(state);
      if (!pendingRefund(state, command.data.refundId)) return [];
      return [{ type: 'EscrowRefundCompleted', data: { refundId: command.data.refundId, externalReferenceId: command.data.externalReferenceId, completedAt: command.data.at } }];
  }
}

export const escrowDecider: Decider<EscrowCommand, EscrowEvent, EscrowState> = {
  initialState: () => ({ status: 'PENDING', allocations: [], seenPayments: [], refunds: [] }),
  evolve,
  decide,
};
