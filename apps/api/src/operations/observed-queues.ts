import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import type { AppConfig } from '@app/config';
import { CALLBACK_QUEUE_NAME } from '@app/callback-delivery';
import { PAYMENT_WORK_QUEUE } from '@app/payments';

export const OBSERVED_QUEUES = Symbol('OBSERVED_QUEUES');

/**
 * Handles on the deployment's BullMQ queues for operators (queue depth, the dashboard), whichever
 * process works them: an API process watches queues its workers drain. None without REDIS_URL.
 */
export function observedQueues(config: AppConfig): Queue[] {
  if (!config.redisUrl) return [];
  const connection = new IORedis(config.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', () => undefined);
  return [PAYMENT_WORK_QUEUE, CALLBACK_QUEUE_NAME].map((name) => {
    const queue = new Queue(name, { connection, prefix: config.redisPrefix });
    queue.on('error', () => undefined);
    return queue;
  });
}
