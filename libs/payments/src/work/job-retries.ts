import type { PaymentJob } from './payment-job';

const MAX_BACKOFF_MS = 60 * 60 * 1000;

function attempt(job: PaymentJob): number {
  return Number(job.step.slice(1)) || 0;
}

/** The job's next run at `runAt`: the same work under the next step's id (`r0` → `r1`), so the scheduler keeps it apart from the run before. */
export function nextAttempt(job: PaymentJob, runAt: number): PaymentJob {
  return { ...job, step: `${job.step[0]}${attempt(job) + 1}`, runAt };
}

/** How long the next attempt waits: twice as long as the one before, from `baseMs`, at most an hour. */
export function backoffMs(job: PaymentJob, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.min(attempt(job), 20), MAX_BACKOFF_MS);
}
