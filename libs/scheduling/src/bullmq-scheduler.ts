import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import type { JobHandler, Scheduler, Timed } from './scheduler.port';

export interface BullmqSchedulerOptions<T> {
  queue: string;
  redisUrl: string;
  prefix: string;
  jobId: (job: T) => string;
  concurrency?: number;
  /**
   * How long a job may run before BullMQ takes it for stalled (its process died) and runs it again.
   * Keep it above the longest job, below how long a crash may delay work.
   */
  lockDurationMs?: number;
}

/** Delayed BullMQ jobs: scheduled work survives a restart of this process. */
export class BullmqScheduler<T extends Timed> implements Scheduler<T> {
  readonly queue: Queue;
  private worker?: Worker;
  private readonly connections: IORedis[] = [];
  /** The queue's own connection, also used to ask about many job ids in one round trip. */
  private readonly redis: IORedis;
  private pending: { job: T; resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(private readonly options: BullmqSchedulerOptions<T>) {
    this.redis = this.connect();
    this.queue = new Queue(options.queue, {
      connection: this.redis,
      prefix: options.prefix,
      // Bounded memory in Redis: finished jobs are kept for a day, at most a few thousand.
      defaultJobOptions: { removeOnComplete: { age: 86_400, count: 5_000 }, removeOnFail: { age: 7 * 86_400, count: 5_000 } },
    });
    // Without a listener BullMQ prints every connection error of a Redis outage to stderr as a raw
    // stack, outside the JSON logs; a failed schedule() still rejects to its caller.
    this.queue.on('error', () => undefined);
  }

  /**
   * An id stays taken while its job waits or runs, as in the in-process scheduler. Once the job has
   * finished, scheduling the id again runs it again: a finished job kept for the dashboard must not
   * block a reconciler re-queueing work that its run left undone (an attempt whose record was lost
   * with the database connection would otherwise wait a day for the kept job to expire).
   */
  schedule(job: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ job, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  /**
   * Jobs scheduled in the same turn of the event loop (a log batch's expiries, a batch's callbacks)
   * go to Redis together: one pipeline asks which ids exist, one MULTI adds them all. Each job is
   * still added under its own id, and an id already waiting or running is left as it is.
   */
  private async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    try {
      const jobs = batch.map(({ job }) => ({ job, jobId: this.options.jobId(job) }));
      await this.removeFinished([...new Set(jobs.map((j) => j.jobId))]);
      await this.queue.addBulk(
        jobs.map(({ job, jobId }) => ({ name: this.options.queue, data: job, opts: { jobId, delay: Math.max(0, job.runAt - Date.now()) } })),
      );
      for (const { resolve } of batch) resolve();
    } catch (error) {
      for (const { reject } of batch) reject(error);
    }
  }

  private async removeFinished(jobIds: string[]): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const jobId of jobIds) pipeline.exists(this.queue.toKey(jobId));
    const exists = (await pipeline.exec()) ?? [];
    const taken = jobIds.filter((_, i) => {
      const [error, count] = exists[i] ?? [];
      if (error) throw error;
      return count === 1;
    });
    for (const jobId of taken) {
      const previous = await this.queue.getJob(jobId);
      if (previous && ((await previous.isCompleted()) || (await previous.isFailed()))) await previous.remove().catch(() => undefined);
    }
  }

  start(handler: JobHandler<T>): void {
    this.worker = new Worker(this.options.queue, (job) => handler(job.data as T), {
      connection: this.connect(),
      prefix: this.options.prefix,
      concurrency: this.options.concurrency ?? 8,
      lockDuration: this.options.lockDurationMs ?? 30_000,
      stalledInterval: this.options.lockDurationMs ?? 30_000,
    });
    // Errors are handled per job (a failed try schedules the next one); this only keeps the process alive.
    this.worker.on('error', () => undefined);
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    await Promise.allSettled(this.connections.map((c) => c.quit()));
  }

  private connect(): IORedis {
    // A worker blocks on Redis; BullMQ requires unlimited retries per request on its connections.
    const connection = new IORedis(this.options.redisUrl, { maxRetriesPerRequest: null });
    connection.on('error', () => undefined);
    this.connections.push(connection);
    return connection;
  }
}
