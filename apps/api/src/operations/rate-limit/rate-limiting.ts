import type { Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { AppConfig } from '@app/config';
import { MerchantAuthenticator } from '@app/onboarding';
import { RateLimitGuard } from './rate-limit.guard';
import { RedisWindowCounts } from './redis-window-counts';
import { InProcessWindowCounts, type WindowCounts } from './window-counts';

const WINDOW_MS = 60_000;

const RATE_LIMIT_COUNTS = Symbol('RATE_LIMIT_COUNTS');

/** The guard that enforces RATE_LIMIT_PER_MINUTE on every route, when it is not 0. */
export function rateLimiting(config: AppConfig): Provider[] {
  if (config.rateLimitPerMinute === 0) return [];
  return [
    {
      provide: RATE_LIMIT_COUNTS,
      useFactory: (): WindowCounts => (config.redisUrl ? new RedisWindowCounts(config.redisUrl, config.redisPrefix, WINDOW_MS) : new InProcessWindowCounts(WINDOW_MS)),
    },
    {
      provide: APP_GUARD,
      useFactory: (counts: WindowCounts, authenticator: MerchantAuthenticator) => new RateLimitGuard(counts, authenticator, config.rateLimitPerMinute),
      inject: [RATE_LIMIT_COUNTS, MerchantAuthenticator],
    },
  ];
}
