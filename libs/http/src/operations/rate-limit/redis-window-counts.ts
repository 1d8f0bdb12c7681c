import type { OnApplicationShutdown } from '@nestjs/common';
import IORedis from 'ioredis';
import type { WindowCount, WindowCounts } from './window-counts';

/** The counts in Redis, shared by every API replica: one Redis key per counted key, expiring with its window. */
export class RedisWindowCounts implements WindowCounts, OnApplicationShutdown {
  private readonly redis: IORedis;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly windowMs: number,
  ) {
    this.redis = new IORedis(url, { maxRetriesPerRequest: 1 });
    this.redis.on('error', () => undefined);
  }

  async add(key: string): Promise<WindowCount> {
    const redisKey = this.redisKey(key);
    // NX: only the window's first request sets its end, so the window stays fixed.
    const results = await this.redis.multi().incr(redisKey).pexpire(redisKey, this.windowMs, 'NX').pttl(redisKey).exec();
    return { count: Number(results?.[0]?.[1] ?? 0), resetsInMs: this.resetsIn(results?.[2]?.[1]) };
  }

  async peek(key: string): Promise<WindowCount> {
    const redisKey = this.redisKey(key);
    const results = await this.redis.multi().get(redisKey).pttl(redisKey).exec();
    return { count: Number(results?.[0]?.[1] ?? 0), resetsInMs: this.resetsIn(results?.[1]?.[1]) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }

  private redisKey(key: string): string {
    return `${this.prefix}:rate:${key}`;
  }

  /** PTTL answers a negative number for a key that is gone or has no expiry: a full window then. */
  private resetsIn(pttl: unknown): number {
    const ms = Number(pttl);
    return Number.isFinite(ms) && ms > 0 ? ms : this.windowMs;
  }
}
