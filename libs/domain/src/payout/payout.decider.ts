import type { Decider } from '../shared/decider';
import { type Santim, santim } from '../shared/money';
import { NothingToPayOut, PayoutBelowMinimum, PayoutDestinationMissing, PayoutNotFound } from './payout.errors';
import type { PayableMovement, PayoutCommand, PayoutDestination, PayoutEvent } from './payout.events';

export type PayoutStatus = 'REQUESTED' | 'SENT' | 'PAID' | 'FAILED';

export interface PayoutRecord {
  payoutId: string;
  amount: Santim;
  status: PayoutStatus;
  destinationVersion: number;
  /** The movements it settles, by event id. */
  settles: string[];
  providerReference?: string;
}

/**
 * A merchant's payout account: its destination, and every payout with what it settles. One stream per
 * merchant, so two payouts asked for at once are decided one after the other and never settle the
 * same movement twice.
 */
export interface PayoutAccountState {
  merchantId?: string;
  destination?: { version: number; destination: PayoutDestination };
  /** Every version, for the payouts still on their way to an earlier one. */
  destinations: Record<number, PayoutDestination>;
  payouts: Record<string, PayoutRecord>;
  /** Movement (event id) → the payout, requested, sent or paid, that settles it; a failed payout's are free again. */
  settledBy: Record<string, string>;
}

const sameDestination = (a: PayoutDestination, b: PayoutDestination) =>
  a.kind === b.kind && a.institution === b.institution && a.holderName === b.holderName && a.accountFingerprint === b.accountFingerprint;

/** The movements no payout in flight or paid settles yet, each once. */
export function unsettledMovements(state: PayoutAccountState, movements: readonly PayableMovement[]): PayableMovement[] {
  const seen = new Set<string>();
  return movements.filter((m) => {
    if (seen.has(m.eventId) || state.settledBy[m.eventId] !== undefined) return false;
    seen.add(m.eventId);
    return true;
  });
}

/** What a payout could pay now: the unsettled movements' sum, never below zero (refunds wait for later releases to net against). */
export function availableToPayOut(state: PayoutAccountState, movements: readonly PayableMovement[]): Santim {
  const sum = unsettledMovements(state, movements).reduce((total, m) => total + m.amount, 0);
  return santim(Math.max(0, sum));
}

function payout(state: PayoutAccountState, payoutId: string): PayoutRecord {
  const found = state.payouts[payoutId];
  if (!found) throw new PayoutNotFound(payoutId);
  return found;
}

const finished = (record: PayoutRecord) => record.status === 'PAID' || record.status === 'FAILED';

function decide(command: PayoutCommand, state: PayoutAccountState): PayoutEvent[] {
  switch (command.type) {
    case 'SetPayoutDestination': {
      const { merchantId, destination, at } = command.data;
      if (state.destination && sameDestination(state.destination.destination, destination)) return [];
      return [{ type: 'PayoutDestinationSet', data: { merchantId, version: (state.destination?.version ?? 0) + 1, destination, setAt: at } }];
    }
    case 'RequestPayout': {
      const { merchantId, payoutId, movements, minimum, trigger, at } = command.data;
      // The same request again (its answer was lost): the payout it made stands.
      if (state.payouts[payoutId]) return [];
      if (!state.destination) throw new PayoutDestinationMissing();
      const settles = unsettledMovements(state, movements);
      const sum = settles.reduce((total, m) => total + m.amount, 0);
      if (sum <= 0) throw new NothingToPayOut();
      const amount = santim(sum);
      if (amount < minimum) throw new PayoutBelowMinimum(amount, minimum);
      return [{ type: 'PayoutRequested', data: { merchantId, payoutId, amount, destinationVersion: state.destination.version, settles, trigger, requestedAt: at } }];
    }
    case 'RecordPayoutSent': {
      const record = payout(state, command.data.payoutId);
      if (record.status !== 'REQUESTED') return [];
      return [{ type: 'PayoutSent', data: { merchantId: state.merchantId!, payoutId: record.payoutId, providerReference: command.data.providerReference, sentAt: command.data.at } }];
    }
    case 'RecordPayoutPaid': {
      const record = payout(state, command.data.payoutId);
      // The provider's first outcome stands: a report after it changes nothing.
      if (finished(record)) return [];
      return [{ type: 'PayoutPaid', data: { merchantId: state.merchantId!, payoutId: record.payoutId, amount: record.amount, externalReferenceId: command.data.externalReferenceId, paidAt: command.data.at } }];
    }
    case 'RecordPayoutFailed': {
      const record = payout(state, command.data.payoutId);
      if (finished(record)) return [];
      return [{ type: 'PayoutFailed', data: { merchantId: state.merchantId!, payoutId: record.payoutId, amount: record.amount, reason: command.data.reason, failedAt: command.data.at } }];
    }
  }
}

function withStatus(state: PayoutAccountState, payoutId: string, changes: Partial<PayoutRecord>): PayoutAccountState {
  return { ...state, payouts: { ...state.payouts, [payoutId]: { ...state.payouts[payoutId], ...changes } } };
}

function evolve(state: PayoutAccountState, event: PayoutEvent): PayoutAccountState {
  switch (event.type) {
    case 'PayoutDestinationSet':
      return {
        ...state,
        merchantId: event.data.merchantId,
        destination: { version: event.data.version, destination: event.data.destination },
        destinations: { ...state.destinations, [event.data.version]: event.data.destination },
      };
    case 'PayoutRequested': {
      const { payoutId, amount, destinationVersion, settles } = event.data;
      const record: PayoutRecord = { payoutId, amount, status: 'REQUESTED', destinationVersion, settles: settles.map((m) => m.eventId) };
      const settledBy = { ...state.settledBy };
      for (const m of settles) settledBy[m.eventId] = payoutId;
      return { ...state, merchantId: event.data.merchantId, payouts: { ...state.payouts, [payoutId]: record }, settledBy };
    }
    case 'PayoutSent':
      return withStatus(state, event.data.payoutId, { status: 'SENT', providerReference: event.data.providerReference });
    case 'PayoutPaid':
      return withStatus(state, event.data.payoutId, { status: 'PAID' });
    case 'PayoutFailed': {
      const settledBy = { ...state.settledBy };
      for (const eventId of state.payouts[event.data.payoutId].settles) delete settledBy[eventId];
      return { ...withStatus(state, event.data.payoutId, { status: 'FAILED' }), settledBy };
    }
  }
}

export const payoutDecider: Decider<PayoutCommand, PayoutEvent, PayoutAccountState> = {
  initialState: () => ({ destinations: {}, payouts: {}, settledBy: {} }),
  evolve,
  decide,
};
