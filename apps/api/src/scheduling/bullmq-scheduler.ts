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

  constructor(private readonly options: BullmqSchedulerOptions<T>) {
    this.queue = new Queue(options.queue, {
      connection: this.connect(),
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
  async schedule(job: T): Promise<void> {
    const jobId = this.options.jobId(job);
    const previous = await this.queue.getJob(jobId);
    if (previous && ((await previous.isCompleted()) || (await previous.isFailed()))) await previous.remove().catch(() => undefined);
    await this.queue.add(this.options.queue, job, { jobId, delay: Math.max(0, job.runAt - Date.now()) });
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
