import type { Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { MigrationSet } from '@app/infrastructure';
import { MerchantAuthenticator } from '@app/onboarding';
import { PostgresWindowCounts, RATE_LIMIT_MIGRATIONS } from './postgres-window-counts';
import { RateLimitGuard } from './rate-limit.guard';
import { RedisWindowCounts } from './redis-window-counts';
import { InProcessWindowCounts, type WindowCounts } from './window-counts';

const WINDOW_MS = 60_000;

const RATE_LIMIT_COUNTS = Symbol('RATE_LIMIT_COUNTS');

/**
 * Where the counts live: in Redis when it is set; otherwise in the deployment's PostgreSQL, which every
 * API process shares; in the process in the embedded mode (PGlite), where one process serves.
 */
function countsIn(config: AppConfig): 'redis' | 'postgres' | 'process' {
  if (config.redisUrl) return 'redis';
  return config.databaseUrl ? 'postgres' : 'process';
}

/** The counts' table, where they live in PostgreSQL. */
export function rateLimitMigrations(config: AppConfig): MigrationSet[] {
  return config.rateLimitPerMinute !== 0 && countsIn(config) === 'postgres' ? [{ component: 'rate-limit', migrations: RATE_LIMIT_MIGRATIONS }] : [];
}

/** The guard that enforces RATE_LIMIT_PER_MINUTE on every route, when it is not 0. */
export function rateLimiting(config: AppConfig): Provider[] {
  if (config.rateLimitPerMinute === 0) return [];
  return [
    {
      provide: RATE_LIMIT_COUNTS,
      useFactory: (db: SqlClient): WindowCounts => {
        switch (countsIn(config)) {
          case 'redis':
            return new RedisWindowCounts(config.redisUrl!, config.redisPrefix, WINDOW_MS);
          case 'postgres':
            return new PostgresWindowCounts(db, WINDOW_MS);
          case 'process':
            return new InProcessWindowCounts(WINDOW_MS);
        }
      },
      inject: [SQL_CLIENT],
    },
    {
      provide: APP_GUARD,
      useFactory: (counts: WindowCounts, authenticator: MerchantAuthenticator) => new RateLimitGuard(counts, authenticator, config.rateLimitPerMinute),
      inject: [RATE_LIMIT_COUNTS, MerchantAuthenticator],
    },
  ];
}
