import type { DeliveryState } from '@app/callbacks';
import { formatPosition, type LogPosition, parsePosition } from '@app/event-store';
import type { StreamHead } from '@app/infrastructure';
import type { Timed } from '@app/scheduling';

/** The delivery as its last event left it: enough to make the next attempt without reading the stream. */
export interface CarriedDelivery {
  scheduled: NonNullable<DeliveryState['scheduled']>;
  attemptsInRound: number;
  /** The stream's last event (a bigint as text, for JSON); the attempt's append expects it, so a stream changed since refuses it. */
  revision: string;
  hash?: string;
}

/** One try at delivering a callback. Attempts are numbered over the delivery's whole life. */
export interface CallbackJob extends Timed {
  deliveryId: string;
  attempt: number;
  /** 0, then one more per redelivery request: a redelivery must not wait behind a retry queued for later. */
  round: number;
  /** A first attempt's source event (formatPosition): decides whether a cached webhook secret may sign it (WebhookSecrets). */
  after?: string;
  /** Absent on jobs the reconciler queues from the read model: those read the delivery's stream. */
  delivery?: CarriedDelivery;
}

export const CALLBACK_QUEUE = Symbol('CALLBACK_QUEUE');
export const CALLBACK_QUEUE_NAME = 'callbacks';

/** Attempts one worker makes at once: its queue's jobs, and as many first attempts its dispatcher makes itself. */
export const ATTEMPTS_AT_ONCE = 32;

/**
 * How long an attempt may take to be made and recorded: a running job's lock, and how long a first
 * attempt stays the dispatcher's that scheduled it before any worker's queued job may make it.
 */
export function attemptLeaseMs(callbackTimeoutMs: number): number {
  return 2 * callbackTimeoutMs + 5_000;
}

/** A first attempt's job (one the dispatcher did not make itself) has the delivery id itself; BullMQ then refuses a second. */
export function callbackJobId(job: CallbackJob): string {
  if (job.round > 0) return `${job.deliveryId}.${job.attempt}.r${job.round}`;
  return job.attempt === 1 ? job.deliveryId : `${job.deliveryId}.${job.attempt}`;
}

/** The next attempt of a pending delivery just written at `head`, carrying what it needs to send and record; `after` as in CallbackJob. */
export function nextAttemptJob(state: DeliveryState & { scheduled: CarriedDelivery['scheduled'] }, head: StreamHead, after: LogPosition | undefined, runAt: number): CallbackJob {
  return {
    deliveryId: state.scheduled.deliveryId,
    attempt: state.attemptCount + 1,
    round: state.round ?? 0,
    runAt,
    ...(after ? { after: formatPosition(after) } : {}),
    delivery: { scheduled: state.scheduled, attemptsInRound: state.attemptsInRound, revision: head.revision.toString(), ...(head.hash ? { hash: head.hash } : {}) },
  };
}

/**
 * The state and head a carried job stands for. Its attempts' details are not carried: deciding an
 * attempt reads only their count, which the job's attempt number gives.
 */
export function carriedState(job: CallbackJob, delivery: CarriedDelivery): { state: DeliveryState; head: StreamHead } {
  return {
    state: { scheduled: delivery.scheduled, status: 'PENDING', attempts: [], attemptCount: job.attempt - 1, attemptsInRound: delivery.attemptsInRound, round: job.round },
    head: { revision: BigInt(delivery.revision), ...(delivery.hash ? { hash: delivery.hash } : {}) },
  };
}

export function afterPosition(job: CallbackJob): LogPosition | undefined {
  return job.after === undefined ? undefined : parsePosition(job.after);
}
