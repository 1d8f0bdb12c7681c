import type { JobHandler, Scheduler, Timed } from './scheduler.port';

/** setTimeout takes at most 2^31-1 ms (~24.8 days); longer waits are re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The scheduler of the embedded mode (neither REDIS_URL nor DATABASE_URL). Its timers die with the process; on start the owners of
 * the work schedule again everything the read models say is due, so nothing is missed.
 */
export class InProcessScheduler<T extends Timed> implements Scheduler<T> {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private handler?: JobHandler<T>;
  private stopped = false;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly jobId: (job: T) => string) {}

  async schedule(job: T): Promise<void> {
    const id = this.jobId(job);
    if (this.stopped || this.timers.has(id)) return;
    this.arm(id, job);
  }

  start(handler: JobHandler<T>): void {
    this.handler = handler;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.handler = undefined;
    await Promise.allSettled([...this.running]);
  }

  private arm(id: string, job: T): void {
    const wait = Math.max(0, job.runAt - Date.now());
    const timer = setTimeout(() => {
      if (wait > MAX_TIMER_MS) return this.arm(id, job);
      if (!this.handler) return void this.timers.delete(id);
      // The id stays taken while the job runs (as a BullMQ job id does while active): a reconciler
      // re-scheduling it meanwhile must not start the same work twice.
      const run = this.handler(job).finally(() => {
        this.running.delete(run);
        if (this.timers.get(id) === timer) this.timers.delete(id);
      });
      this.running.add(run);
    }, Math.min(wait, MAX_TIMER_MS));
    this.timers.set(id, timer);
  }
}
