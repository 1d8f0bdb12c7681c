import type { AppConfig } from '@app/config';
import { BullmqScheduler } from './bullmq-scheduler';
import { InProcessScheduler } from './in-process-scheduler';
import { queueConnectionFor } from './queue-connection';
import type { Scheduler, Timed } from './scheduler.port';

export interface QueueOptions<T> {
  queue: string;
  jobId: (job: T) => string;
  concurrency?: number;
  lockDurationMs?: number;
}

/**
 * BullMQ delayed jobs, in Redis (REDIS_URL) or else in the deployment's PostgreSQL (DATABASE_URL): work
 * outlives the process. Timers in this process in the embedded mode (PGlite), where one process serves.
 */
export function schedulerFor<T extends Timed>(config: AppConfig, options: QueueOptions<T>): Scheduler<T> {
  const connection = queueConnectionFor(config);
  return connection ? new BullmqScheduler<T>({ ...options, connection }) : new InProcessScheduler<T>(options.jobId);
}
