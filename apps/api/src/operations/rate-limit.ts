import { Injectable, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import IORedis from 'ioredis';
import { createHash } from 'node:crypto';
import type { AppConfig } from '@app/config';

/**
 * Fixed one-minute windows counted in Redis, so every API replica enforces one shared limit.
 * (The maintained Redis storage for @nestjs/throttler does not support NestJS 12 yet.)
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly redis: IORedis;

  constructor(url: string, private readonly prefix: string) {
    this.redis = new IORedis(url, { maxRetriesPerRequest: 1 });
    this.redis.on('error', () => undefined);
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const redisKey = `${this.prefix}:throttle:${key}`;
    const results = await this.redis.multi().incr(redisKey).pexpire(redisKey, ttl, 'NX').pttl(redisKey).exec();
    const totalHits = Number(results?.[0]?.[1] ?? 0);
    const secondsLeft = Math.max(1, Math.ceil(Number(results?.[2]?.[1] ?? ttl) / 1000));
    return { totalHits, timeToExpire: secondsLeft, isBlocked: totalHits > limit, timeToBlockExpire: totalHits > limit ? secondsLeft : 0 };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

/** Limits each merchant (by the API secret it presents) or, without one, each client address. */
@Injectable()
export class MerchantThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(request: Record<string, any>): Promise<string> {
    const secret = request.headers?.['x-api-secret'];
    if (typeof secret === 'string' && secret.length > 0) return `secret:${createHash('sha256').update(secret).digest('base64url')}`;
    return `ip:${request.ip as string}`;
  }
}

export function rateLimiting(config: AppConfig) {
  const enabled = config.rateLimitPerMinute > 0;
  const storage = enabled && config.redisUrl ? new RedisThrottlerStorage(config.redisUrl, config.redisPrefix) : undefined;
  const module = ThrottlerModule.forRoot({ throttlers: [{ name: 'default', ttl: 60_000, limit: Math.max(config.rateLimitPerMinute, 1) }], storage });
  const providers: Provider[] = enabled
    ? [
        { provide: APP_GUARD, useClass: MerchantThrottlerGuard },
        { provide: RedisThrottlerStorage, useValue: { onApplicationShutdown: () => storage?.close() } },
      ]
    : [];
  return { module, providers };
}
