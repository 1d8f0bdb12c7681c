import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { createRetryingPostgresBackend } from './postgres-queue-backend';
import { postgresQueueConfig, type QueueConnection } from './queue-connection';
import type { JobHandler, Scheduler, Timed } from './scheduler.port';

export interface BullmqSchedulerOptions<T> {
  queue: string;
  connection: QueueConnection;
  jobId: (job: T) => string;
  concurrency?: number;
  /**
   * How long a job may run before BullMQ takes it for stalled (its process died) and runs it again.
   * Keep it above the longest job, below how long a crash may delay work.
   */
  lockDurationMs?: number;
}

const RETRY_START_MS = 1_000;

// Bounded storage: finished jobs are kept for a day, at most a few thousand.
const defaultJobOptions = { removeOnComplete: { age: 86_400, count: 5_000 }, removeOnFail: { age: 7 * 86_400, count: 5_000 } };

/** Delayed BullMQ jobs, in Redis or in PostgreSQL: scheduled work survives a restart of this process. */
export class BullmqScheduler<T extends Timed> implements Scheduler<T> {
  readonly queue: Queue;
  private worker?: Worker;
  private readonly connections: IORedis[] = [];
  /** On Redis, the queue's own connection, also used to ask about many job ids in one round trip. */
  private readonly redis?: IORedis;
  private pending: { job: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private readonly flushes = new Set<Promise<void>>();
  private stopping = false;
  /** Set once the running jobs have finished and the queue is about to close. */
  private closing = false;

  constructor(private readonly options: BullmqSchedulerOptions<T>) {
    const { connection } = options;
    if (connection.kind === 'redis') {
      this.redis = this.connect(connection.url);
      this.queue = new Queue(options.queue, { connection: this.redis, prefix: connection.prefix, defaultJobOptions });
    } else {
      this.queue = new Queue(
        options.queue,
        { connection: postgresQueueConfig(connection, `escrow-ledger queue ${options.queue}`), defaultJobOptions },
        createRetryingPostgresBackend,
      ) as unknown as Queue;
    }
    // Without a listener BullMQ prints every connection error of an outage to stderr as a raw
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
    // A closed queue's add never settles on PostgreSQL, and would hold up whatever awaits it (a shutdown).
    // Work scheduled this late is dropped, as by the in-process scheduler: its owner queues it again from
    // the read models when a process starts (scheduler.port.ts).
    if (this.closing) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.pending.push({ job, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.flushTracked());
    });
  }

  private flushTracked(): Promise<void> {
    const flush = this.flush().finally(() => this.flushes.delete(flush));
    this.flushes.add(flush);
    return flush;
  }

  /**
   * Jobs scheduled in the same turn of the event loop (a log batch's expiries, a batch's callbacks)
   * go to the queue together: finished ones under the same ids are removed, then one bulk add adds
   * them all. Each job is still added under its own id, and an id already waiting or running is left as it is.
   */
  private async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
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
    for (const jobId of await this.taken(jobIds)) {
      const previous = await this.queue.getJob(jobId);
      if (previous && ((await previous.isCompleted()) || (await previous.isFailed()))) await previous.remove().catch(() => undefined);
    }
  }

  /** The ids that name a job in any state. */
  private async taken(jobIds: string[]): Promise<string[]> {
    if (!this.redis) {
      const states = await Promise.all(jobIds.map((jobId) => this.queue.getJobState(jobId)));
      return jobIds.filter((_, i) => states[i] !== 'unknown');
    }
    const pipeline = this.redis.pipeline();
    for (const jobId of jobIds) pipeline.exists(this.queue.toKey(jobId));
    const exists = (await pipeline.exec()) ?? [];
    return jobIds.filter((_, i) => {
      const [error, count] = exists[i] ?? [];
      if (error) throw error;
      return count === 1;
    });
  }

  start(handler: JobHandler<T>): void {
    const { connection } = this.options;
    const options = {
      concurrency: this.options.concurrency ?? 8,
      lockDuration: this.options.lockDurationMs ?? 30_000,
      stalledInterval: this.options.lockDurationMs ?? 30_000,
    };
    const process = (job: { data: unknown }) => handler(job.data as T);
    if (connection.kind === 'redis') {
      this.worker = new Worker(this.options.queue, process, { ...options, connection: this.connect(connection.url), prefix: connection.prefix });
    } else {
      const worker = new Worker(
        this.options.queue,
        process,
        { ...options, autorun: false, connection: postgresQueueConfig(connection, `escrow-ledger worker ${this.options.queue}`) },
        createRetryingPostgresBackend,
      ) as unknown as Worker;
      this.worker = worker;
      void this.runWhenReady(worker);
    }
    // Errors are handled per job (a failed try schedules the next one); this only keeps the process alive.
    this.worker.on('error', () => undefined);
  }

  /**
   * A BullMQ worker that runs on its own gives up for good when its first connection fails: on
   * PostgreSQL it starts once the database answers (a process may start in an outage or a failover),
   * and starts again if its run ends while the scheduler still runs.
   */
  private async runWhenReady(worker: Worker): Promise<void> {
    while (!this.stopping) {
      try {
        await worker.waitUntilReady();
        await worker.run();
      } catch {
        // Waited out below: the database is away, or the run ended on an error it did not survive.
      }
      if (!this.stopping) await new Promise((resolve) => setTimeout(resolve, RETRY_START_MS));
    }
  }

  /** The running jobs finish first (what they schedule is still queued), then what was scheduled before the stop is sent. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.worker?.close();
    this.closing = true;
    await Promise.allSettled([this.flushTracked(), ...this.flushes]);
    await this.queue.close();
    await Promise.allSettled(this.connections.map((c) => c.quit()));
  }

  private connect(url: string): IORedis {
    // A worker blocks on Redis; BullMQ requires unlimited retries per request on its connections.
    const connection = new IORedis(url, { maxRetriesPerRequest: null });
    connection.on('error', () => undefined);
    this.connections.push(connection);
    return connection;
  }
}
