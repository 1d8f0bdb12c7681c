import { type JobHandler, jobIdOf, type ScheduledJob, type Scheduler } from './scheduler.port';

/** setTimeout takes at most 2^31-1 ms (~24.8 days); longer waits are re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The scheduler when REDIS_URL is unset. Its timers die with the process; on start the reactor
 * schedules again everything that is due according to the read models, so nothing is missed.
 */
export class InProcessScheduler implements Scheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private handler?: JobHandler;
  private running = new Set<Promise<void>>();

  async schedule(job: ScheduledJob): Promise<void> {
    const id = jobIdOf(job);
    if (this.timers.has(id)) return;
    this.arm(id, job);
  }

  start(handler: JobHandler): void {
    this.handler = handler;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.handler = undefined;
    await Promise.allSettled([...this.running]);
  }

  private arm(id: string, job: ScheduledJob): void {
    const wait = Math.max(0, job.runAt - Date.now());
    const timer = setTimeout(() => {
      if (wait > MAX_TIMER_MS) return this.arm(id, job);
      this.timers.delete(id);
      if (!this.handler) return;
      const run = this.handler(job).finally(() => this.running.delete(run));
      this.running.add(run);
    }, Math.min(wait, MAX_TIMER_MS));
    this.timers.set(id, timer);
  }
}
