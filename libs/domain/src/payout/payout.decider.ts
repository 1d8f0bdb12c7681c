import type { Decider } from '../shared/decider';
import { type Santim, santim } from '../shared/money';
import { NothingToPayOut, PayoutBelowMinimum, PayoutDestinationMissing, PayoutNotFound } from './payout.errors';
import { latestDuePeriod } from './payout-schedule';
import type { PayableMovement, PayoutCommand, PayoutDestination, PayoutEvent, PayoutSettings } from './payout.events';

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
  /** Absent until first changed: DEFAULT_PAYOUT_SETTINGS apply. */
  settings?: { version: number; settings: PayoutSettings };
  payouts: Record<string, PayoutRecord>;
  /** Movement (event id) → the payout, requested, sent or paid, that settles it; a failed payout's are free again. */
  settledBy: Record<string, string>;
}

/** Until a merchant says otherwise: payouts only when asked for, of at least a santim, and no payout callbacks. */
export const DEFAULT_PAYOUT_SETTINGS: PayoutSettings = { schedule: { kind: 'manual' }, minimumAmount: santim(1), callbackUrl: null };

export const payoutSettingsOf = (state: PayoutAccountState): PayoutSettings => state.settings?.settings ?? DEFAULT_PAYOUT_SETTINGS;

const sameSettings = (a: PayoutSettings, b: PayoutSettings) =>
  a.minimumAmount === b.minimumAmount &&
  a.callbackUrl === b.callbackUrl &&
  a.schedule.kind === b.schedule.kind &&
  (a.schedule.kind === 'manual' || (b.schedule.kind !== 'manual' && a.schedule.hour === b.schedule.hour)) &&
  (a.schedule.kind !== 'weekly' || (b.schedule.kind === 'weekly' && a.schedule.weekday === b.schedule.weekday));

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
    case 'SetPayoutSettings': {
      const { merchantId, settings, at } = command.data;
      if (sameSettings(payoutSettingsOf(state), settings)) return [];
      return [{ type: 'PayoutSettingsChanged', data: { merchantId, version: (state.settings?.version ?? 0) + 1, settings, changedAt: at } }];
    }
    case 'RequestPayout': {
      const { merchantId, payoutId, movements, at } = command.data;
      // The same request again (its answer was lost, or a period's job ran twice): the payout it made stands.
      if (state.payouts[payoutId]) return [];
      const settings = payoutSettingsOf(state);
      const scheduled = command.data.trigger === 'schedule' ? command.data.period : undefined;
      // A job of a period that is no longer the schedule's latest due one (it ran late, or the schedule
      // changed since it was queued) pays nothing: the current period's job pays what is there, once.
      if (scheduled !== undefined && latestDuePeriod(settings.schedule, Date.parse(at))?.key !== scheduled) return [];
      const settles = unsettledMovements(state, movements);
      const sum = settles.reduce((total, m) => total + m.amount, 0);
      const refusal = !state.destination
        ? new PayoutDestinationMissing()
        : sum <= 0
          ? new NothingToPayOut()
          : sum < settings.minimumAmount
            ? new PayoutBelowMinimum(santim(sum), settings.minimumAmount)
            : undefined;
      if (refusal) {
        // Nobody asked for a scheduled payout: with nothing (or too little) to pay, its period pays nothing and the money waits.
        if (scheduled !== undefined) return [];
        throw refusal;
      }
      const destinationVersion = state.destination!.version;
      const amount = santim(sum);
      return [
        {
          type: 'PayoutRequested',
          data: { merchantId, payoutId, amount, destinationVersion, settles, trigger: command.data.trigger, ...(scheduled !== undefined && { period: scheduled }), requestedAt: at },
        },
      ];
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
    case 'PayoutSettingsChanged':
      return { ...state, merchantId: event.data.merchantId, settings: { version: event.data.version, settings: event.data.settings } };
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
