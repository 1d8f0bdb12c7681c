/** Work due at an instant. `T` is the job's data; `runAt` is when it is due (ms since the epoch). */
export interface Timed {
  runAt: number;
}

export type JobHandler<T> = (job: T) => Promise<void>;

export interface Scheduler<T extends Timed> {
  /**
   * Idempotent while a job with this id waits or runs; once it has finished, the id can be scheduled again.
   * Once stopped, a job is dropped (the promise settles at once): every owner of scheduled work queues
   * again what the read models say is due when a process starts, so nothing is lost.
   */
  schedule(job: T): Promise<void>;
  start(handler: JobHandler<T>): void;
  /** Stops taking jobs and waits for the running ones; what they schedule meanwhile is still queued. */
  stop(): Promise<void>;
}
