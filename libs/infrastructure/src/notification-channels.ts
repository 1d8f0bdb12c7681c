import type { AppConfig } from '@app/config';
import { notificationChannel } from '@app/database';

/**
 * NOTIFY channels, for processes sharing a PostgreSQL server: appends wake other processes' followers,
 * checkpoint moves wake APIs waiting on another process's projector. The embedded database lives in
 * one process, where both are signalled directly.
 */
export function notificationChannels(config: AppConfig): { events?: string; checkpoint?: string } {
  if (!config.databaseUrl) return {};
  return { events: notificationChannel(config.databaseSchema, 'events'), checkpoint: notificationChannel(config.databaseSchema, 'checkpoint') };
}
