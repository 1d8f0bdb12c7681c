import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import type { AppConfig } from '@app/config';
import { CALLBACK_QUEUE_NAME } from '@app/callback-delivery';
import { PAYMENT_WORK_QUEUE } from '@app/payments';
import { createRetryingPostgresBackend, postgresQueueConfig, queueConnectionFor } from '@app/scheduling';

export const OBSERVED_QUEUES = Symbol('OBSERVED_QUEUES');

/**
 * Handles on the deployment's BullMQ queues for operators (queue depth, readiness, the dashboard),
 * whichever process works them and whichever store holds them (Redis, or PostgreSQL without
 * REDIS_URL): an API process watches queues its workers drain. None in the embedded mode.
 */
export function observedQueues(config: AppConfig): Queue[] {
  const connection = queueConnectionFor(config);
  if (!connection) return [];
  const names = [PAYMENT_WORK_QUEUE, CALLBACK_QUEUE_NAME];
  let queues: Queue[];
  if (connection.kind === 'redis') {
    const redis = new IORedis(connection.url, { maxRetriesPerRequest: null });
    redis.on('error', () => undefined);
    queues = names.map((name) => new Queue(name, { connection: redis, prefix: connection.prefix }));
  } else {
    queues = names.map(
      (name) => new Queue(name, { connection: postgresQueueConfig(connection, 'escrow-ledger queue observer') }, createRetryingPostgresBackend) as unknown as Queue,
    );
  }
  for (const queue of queues) queue.on('error', () => undefined);
  return queues;
}
