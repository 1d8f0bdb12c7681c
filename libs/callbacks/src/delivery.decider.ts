import { type Decider, DomainError } from '@app/domain';
import type { CallbackEvent } from './delivery.events';

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'ABANDONED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type AttemptRecord = Omit<Extract<CallbackEvent, { type: 'CallbackAttempted' }>['data'], 'deliveryId'>;

export interface DeliveryState {
  scheduled?: Extract<CallbackEvent, { type: 'CallbackScheduled' }>['data'];
  status: DeliveryStatus;
  attempts: AttemptRecord[];
  /**
   * How many attempts were made over the delivery's life. Deciding reads this rather than the list,
   * so a state carried by a queued attempt without its predecessors' details decides the same.
   */
  attemptCount: number;
  /** Attempts since the delivery was last (re)opened: indexes the retry schedule. */
  attemptsInRound: number;
  /** How many times the merchant asked for redelivery; each request starts a round of its own. */
  round?: number;
  /** When the next attempt is due while pending (unknown for an attempt recorded before attempts said so). */
  dueAt?: string;
}

export interface AttemptResult {
  attempt: number;
  at: string;
  latencyMs: number;
  statusCode?: number;
  response?: string;
  error?: string;
}

export type DeliveryCommand =
  | { type: 'ScheduleCallback'; data: Extract<CallbackEvent, { type: 'CallbackScheduled' }>['data'] }
  /** `retriesLeft`: how many more tries the schedule allows after this one; `nextAttemptAt`: when it would be. */
  | { type: 'RecordAttempt'; data: AttemptResult & { retriesLeft: number; nextAttemptAt: string } }
  /** `merchantId`: the merchant asking; another merchant's delivery is, to it, one that does not exist. */
  | { type: 'RequestRedelivery'; data: { deliveryId: string; merchantId: string; at: string } };

export class DeliveryNotFound extends DomainError {
  constructor(deliveryId: string) {
    super('ABC_001', `Callback delivery ${deliveryId} was not found`, 'not_found');
  }
}

export class StaleAttempt extends DomainError {
  constructor() {
    super('STALE_ATTEMPT', 'This attempt was already recorded', 'conflict');
  }
}

export function isSuccess(statusCode: number | undefined): boolean {
  return statusCode !== undefined && statusCode >= 200 && statusCode < 300;
}

/** 410 Gone: the receiver says this endpoint will never take the callback. */
export function isGone(statusCode: number | undefined): boolean {
  return statusCode === 410;
}

function evolve(state: DeliveryState, event: CallbackEvent): DeliveryState {
  switch (event.type) {
    case 'CallbackScheduled':
      return { ...state, scheduled: event.data, status: 'PENDING', dueAt: event.data.scheduledAt };
    case 'CallbackAttempted': {
      const { attempt: number, at, latencyMs, statusCode, response, error, delivered, nextAttemptAt } = event.data;
      const attempt: AttemptRecord = { attempt: number, at, latencyMs, statusCode, response, error, delivered, nextAttemptAt };
      return {
        ...state,
        attempts: [...state.attempts, attempt],
        attemptCount: state.attemptCount + 1,
        attemptsInRound: state.attemptsInRound + 1,
        dueAt: nextAttemptAt,
      };
    }
    case 'CallbackDelivered':
      return { ...state, status: 'DELIVERED', dueAt: undefined };
    case 'CallbackAbandoned':
      return { ...state, status: 'ABANDONED', dueAt: undefined };
    case 'CallbackRedeliveryRequested':
      return { ...state, status: 'PENDING', attemptsInRound: 0, round: (state.round ?? 0) + 1, dueAt: event.data.requestedAt };
  }
}

function decide(command: DeliveryCommand, state: DeliveryState): CallbackEvent[] {
  if (command.type === 'ScheduleCallback') return state.scheduled ? [] : [{ type: 'CallbackScheduled', data: command.data }];
  const scheduled = state.scheduled;
  if (command.type === 'RequestRedelivery') {
    if (scheduled?.merchantId !== command.data.merchantId) throw new DeliveryNotFound(command.data.deliveryId);
    return [{ type: 'CallbackRedeliveryRequested', data: { deliveryId: scheduled.deliveryId, requestedAt: command.data.at } }];
  }
  if (!scheduled) throw new DeliveryNotFound('unknown');
  const deliveryId = scheduled.deliveryId;
  const { retriesLeft, nextAttemptAt, ...result } = command.data;
  // Attempts are numbered across the delivery's life; a duplicate job for a number already used is dropped.
  if (state.status !== 'PENDING' || result.attempt !== state.attemptCount + 1) throw new StaleAttempt();
  const delivered = isSuccess(result.statusCode);
  const abandoned = !delivered && (isGone(result.statusCode) || retriesLeft <= 0);
  const events: CallbackEvent[] = [{ type: 'CallbackAttempted', data: { deliveryId, ...result, delivered, ...(delivered || abandoned ? {} : { nextAttemptAt }) } }];
  if (delivered) {
    events.push({ type: 'CallbackDelivered', data: { deliveryId, attempt: result.attempt, deliveredAt: result.at } });
  } else if (abandoned) {
    const reason = isGone(result.statusCode) ? 'The receiver answered 410 Gone' : 'Every scheduled attempt failed';
    events.push({ type: 'CallbackAbandoned', data: { deliveryId, attempts: result.attempt, reason, abandonedAt: result.at } });
  }
  return events;
}

export const deliveryDecider: Decider<DeliveryCommand, CallbackEvent, DeliveryState> = {
  initialState: () => ({ status: 'PENDING', attempts: [], attemptCount: 0, attemptsInRound: 0 }),
  evolve,
  decide,
};
