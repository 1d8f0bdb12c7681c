/** Work due at an instant: expire an unpaid order, or (re)try a refund with the provider. */
export interface ScheduledJob {
  kind: 'expire' | 'refund';
  /** Order or escrow id. */
  id: string;
  refundId?: string;
  /** 0 for the first try; each retry schedules a new job with the next attempt. */
  attempt: number;
  runAt: number;
}

export type JobHandler = (job: ScheduledJob) => Promise<void>;

export interface Scheduler {
  /** Idempotent: the same job scheduled twice runs once. */
  schedule(job: ScheduledJob): Promise<void>;
  start(handler: JobHandler): void;
  stop(): Promise<void>;
}

export const SCHEDULER = Symbol('SCHEDULER');

export function jobIdOf(job: ScheduledJob): string {
  // BullMQ refuses ':' in custom job ids.
  return [job.kind, job.id, job.refundId ?? '-', job.attempt].join('.');
}
