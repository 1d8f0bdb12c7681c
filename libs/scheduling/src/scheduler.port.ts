/** Work due at an instant. `T` is the job's data; `runAt` is when it is due (ms since the epoch). */
export interface Timed {
  runAt: number;
}

export type JobHandler<T> = (job: T) => Promise<void>;

export interface Scheduler<T extends Timed> {
  /** Idempotent while a job with this id waits or runs; once it has finished, the id can be scheduled again. */
  schedule(job: T): Promise<void>;
  start(handler: JobHandler<T>): void;
  /** Stops taking jobs and waits for the running ones. */
  stop(): Promise<void>;
}
