import type { Decider } from '../shared/decider';
import { type Santim, santim } from '../shared/money';
import { NothingToPayOut, PayoutBelowMinimum, PayoutDestinationMissing, PayoutNotFound } from './payout.errors';
import { scheduledPayoutId } from '../ids';
import { nextDuePeriod, payablePeriod, type PayoutPeriod, type PayoutSchedule } from './payout-schedule';
import { type SettingsInForce, settingsAfter, settingsOrDefault } from './payout-settings.decider';
import type { PayableMovement, PayoutCommand, PayoutDestination, PayoutEvent } from './payout.events';

/** The events of a merchant's payout account stream (`payouts-{merchantId}`): neither books nor a destination's failure were ever written there. */
export type PayoutAccountEvent = Exclude<PayoutEvent, { type: 'PayoutBooked' | 'TransferBooked' | 'PayoutDestinationFailed' }>;

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
  /**
   * `failedPayoutId`: a payout to this destination failed (a bounce, a closed account): the schedule sends
   * nothing more to it until the destination is set again, so a bad account is not paid to over and over.
   */
  destination?: { version: number; destination: PayoutDestination; failedPayoutId?: string };
  /** Every version, for the payouts still on their way to an earlier one. */
  destinations: Record<number, PayoutDestination>;
  /** The settings as this stream kept them before they had a stream of their own (payout-settings.decider.ts). */
  settings?: SettingsInForce;
  /** Each payout with what it settles: a failed payout's movements are free again. */
  payouts: ReadonlyMap<string, PayoutRecord>;
}

/**
 * The period the schedule pays next after `now`, as the merchant is told it: none while the schedule
 * is manual or paused by a failed payout; a period already paid (a schedule switched within its day or
 * week: its payout's id derives from the period) is passed for the one after it.
 */
export function nextScheduledPeriod(schedule: PayoutSchedule, now: number, standing: { paused: boolean; paid: (periodKey: string) => boolean }): PayoutPeriod | undefined {
  if (standing.paused) return undefined;
  let next = nextDuePeriod(schedule, now);
  while (next && standing.paid(next.key)) next = nextDuePeriod(schedule, next.dueAt);
  return next;
}

/** The same, as the payout account itself knows its payouts and destination. */
export function nextScheduledPeriodOf(account: PayoutAccountState, schedule: PayoutSchedule, now: number): PayoutPeriod | undefined {
  const { merchantId } = account;
  return nextScheduledPeriod(schedule, now, {
    paused: account.destination?.failedPayoutId !== undefined,
    paid: (key) => merchantId !== undefined && account.payouts.has(scheduledPayoutId(merchantId, key)),
  });
}

const sameDestination = (a: PayoutDestination, b: PayoutDestination) =>
  a.kind === b.kind && a.institution === b.institution && a.holderName === b.holderName && a.accountFingerprint === b.accountFingerprint;

/**
 * The movements no payout in flight or paid settles yet, each once. What is settled is gathered here,
 * once per decision, rather than kept up to date by every event: a fold that copied it per payout cost
 * the square of the history (365 payouts of 200 movements: 17 s).
 */
export function unsettledMovements(state: PayoutAccountState, movements: readonly PayableMovement[]): PayableMovement[] {
  const seen = new Set<string>();
  for (const record of state.payouts.values()) {
    if (record.status !== 'FAILED') for (const eventId of record.settles) seen.add(eventId);
  }
  return movements.filter((m) => {
    if (seen.has(m.eventId)) return false;
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
  const found = state.payouts.get(payoutId);
  if (!found) throw new PayoutNotFound(payoutId);
  return found;
}

const finished = (record: PayoutRecord) => record.status === 'PAID' || record.status === 'FAILED';

function decide(command: PayoutCommand, state: PayoutAccountState): PayoutAccountEvent[] {
  switch (command.type) {
    case 'SetPayoutDestination': {
      const { merchantId, destination, at } = command.data;
      // The same account set again after a payout to it failed is the merchant saying it is fixed: a new version, and the schedule resumes.
      if (state.destination && !state.destination.failedPayoutId && sameDestination(state.destination.destination, destination)) return [];
      return [{ type: 'PayoutDestinationSet', data: { merchantId, version: (state.destination?.version ?? 0) + 1, destination, setAt: at } }];
    }
    case 'RequestPayout': {
      const { merchantId, payoutId, movements, at } = command.data;
      // The same request again (its answer was lost, or a period's job ran twice): the payout it made stands.
      if (state.payouts.has(payoutId)) return [];
      const inForce = command.data.settings ?? state.settings;
      const settings = settingsOrDefault(inForce);
      const scheduled = command.data.trigger === 'schedule' ? command.data.period : undefined;
      // A job of a period that is not the schedule's payable one (it ran late, the schedule changed since it
      // was queued, or the period fell due before the schedule was set) pays nothing: the money waits for
      // the period that is, and a period's job pays what is there once.
      if (scheduled !== undefined && payablePeriod(settings.schedule, inForce?.scheduleSetAt ?? 0, Date.parse(at))?.key !== scheduled) return [];
      // After a failure the destination waits for the merchant (told by PAYOUT_FAILED); one asked for on demand is their own decision.
      if (scheduled !== undefined && state.destination?.failedPayoutId) return [];
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
      return [{ type: 'PayoutPaid', data: { merchantId: state.merchantId!, payoutId: record.payoutId, amount: record.amount, externalReferenceId: command.data.externalReferenceId, paidAt: command.data.at, callbackUrl: command.data.callbackUrl } }];
    }
    case 'RecordPayoutFailed': {
      const record = payout(state, command.data.payoutId);
      if (finished(record)) return [];
      return [{ type: 'PayoutFailed', data: { merchantId: state.merchantId!, payoutId: record.payoutId, amount: record.amount, reason: command.data.reason, failedAt: command.data.at, callbackUrl: command.data.callbackUrl } }];
    }
  }
}

function withStatus(state: PayoutAccountState, payoutId: string, changes: Partial<PayoutRecord>): PayoutAccountState {
  return { ...state, payouts: new Map(state.payouts).set(payoutId, { ...state.payouts.get(payoutId)!, ...changes }) };
}

function evolve(state: PayoutAccountState, event: PayoutAccountEvent): PayoutAccountState {
  switch (event.type) {
    case 'PayoutDestinationSet':
      return {
        ...state,
        merchantId: event.data.merchantId,
        destination: { version: event.data.version, destination: event.data.destination },
        destinations: { ...state.destinations, [event.data.version]: event.data.destination },
      };
    case 'PayoutSettingsChanged':
      return { ...state, merchantId: event.data.merchantId, settings: settingsAfter(state.settings, event.data) };
    case 'PayoutRequested': {
      const { payoutId, amount, destinationVersion, settles } = event.data;
      const record: PayoutRecord = { payoutId, amount, status: 'REQUESTED', destinationVersion, settles: (settles ?? []).map((m) => m.eventId) };
      return { ...state, merchantId: event.data.merchantId, payouts: new Map(state.payouts).set(payoutId, record) };
    }
    case 'PayoutSent':
      return withStatus(state, event.data.payoutId, { status: 'SENT', providerReference: event.data.providerReference });
    case 'PayoutPaid':
      return withStatus(state, event.data.payoutId, { status: 'PAID' });
    case 'PayoutFailed': {
      const record = state.payouts.get(event.data.payoutId)!;
      const destination = state.destination?.version === record.destinationVersion ? { ...state.destination, failedPayoutId: record.payoutId } : state.destination;
      return { ...withStatus(state, event.data.payoutId, { status: 'FAILED' }), destination };
    }
  }
}

export const payoutDecider: Decider<PayoutCommand, PayoutAccountEvent, PayoutAccountState> = {
  initialState: () => ({ destinations: {}, payouts: new Map() }),
  evolve,
  decide,
};
