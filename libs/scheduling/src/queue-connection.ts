import type { PostgresPoolConfig } from 'bullmq';
import type { AppConfig } from '@app/config';
import { primaryConnection } from '@app/database';

/** Where BullMQ keeps a deployment's queues: Redis under a key prefix, or PostgreSQL in a schema of its own. */
export type QueueConnection = { kind: 'redis'; url: string; prefix: string } | { kind: 'postgres'; url: string; schema: string };

/**
 * Redis when REDIS_URL is set; otherwise the deployment's PostgreSQL (BullMQ's PostgreSQL backend), so
 * that one engine holds the log, the read models and the queues, and fails over as one. None in the
 * embedded mode (no DATABASE_URL): PGlite serves one process, whose own timers then hold the work.
 */
export function queueConnectionFor(config: AppConfig): QueueConnection | undefined {
  if (config.redisUrl) return { kind: 'redis', url: config.redisUrl, prefix: config.redisPrefix };
  if (config.databaseUrl) return { kind: 'postgres', url: config.databaseUrl, schema: queueSchema(config.databaseSchema) };
  return undefined;
}

/** BullMQ's tables (job, meta, …) in a schema beside the deployment's, never among its own tables. */
export function queueSchema(databaseSchema: string): string {
  return `${databaseSchema}_queues`;
}

/**
 * BullMQ's PostgreSQL connection: its pool and its LISTEN connection follow the deployment's primary
 * (a multi-host DATABASE_URL), and the first to connect creates or migrates the queue schema (under
 * BullMQ's own advisory lock, so processes starting together do it once).
 */
export function postgresQueueConfig(connection: Extract<QueueConnection, { kind: 'postgres' }>, applicationName: string): PostgresPoolConfig {
  // BullMQ's own pg config type is narrower than pg's (no password callback, which this config never has).
  const { config } = primaryConnection(connection.url, { application_name: applicationName });
  return { ...(config as PostgresPoolConfig), schema: connection.schema, migrate: true, max: 2 };
}
