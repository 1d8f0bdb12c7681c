import type { AppConfig } from '@app/config';
import { BullmqScheduler } from './bullmq-scheduler';
import { InProcessScheduler } from './in-process-scheduler';
import type { Scheduler, Timed } from './scheduler.port';

export interface QueueOptions<T> {
  queue: string;
  jobId: (job: T) => string;
  concurrency?: number;
  lockDurationMs?: number;
}

/** BullMQ delayed jobs when REDIS_URL is set (work outlives the process); timers in this process otherwise. */
export function schedulerFor<T extends Timed>(config: AppConfig, options: QueueOptions<T>): Scheduler<T> {
  return config.redisUrl
    ? new BullmqScheduler<T>({ ...options, redisUrl: config.redisUrl, prefix: config.redisPrefix })
    : new InProcessScheduler<T>(options.jobId);
}
