import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MerchantAuthenticator } from '@app/onboarding';
import { ApiError } from '../../problem';
import type { WindowCount, WindowCounts } from './window-counts';

/**
 * RATE_LIMIT_PER_MINUTE per API key across every route, and per client address for every request no
 * valid key vouches for (none sent, or a wrong one). A platform acting for one of its accounts
 * (`x-account-id`) is counted on its own key: the key is the credential that spends the limit.
 *
 * A wrong secret is counted on its address, never under a key of its own, and an address past its
 * limit is refused before a secret this process does not remember is looked up: a burst of made-up
 * secrets gets 429s, not database round trips (the authenticator remembers refusals too).
 */
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly counts: WindowCounts,
    private readonly authenticator: MerchantAuthenticator,
    private readonly limit: number,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const address = `address:${request.ip}`;
    const secret = apiSecret(request);
    if (!secret) return this.admit(reply, await this.counts.add(address), 'from this address');
    let merchant = this.authenticator.remembered(secret);
    if (!merchant) {
      const failures = await this.counts.peek(address);
      if (failures.count >= this.limit) this.refuse(reply, failures, 'from this address');
      merchant = await this.authenticator.authenticate(secret);
    }
    // A wrong secret goes on, counted on its address: the route's guard answers its 401.
    if (!merchant) return this.admit(reply, await this.counts.add(address), 'from this address');
    return this.admit(reply, await this.counts.add(`key:${merchant.merchantId}`), 'for this API key');
  }

  private admit(reply: FastifyReply, window: WindowCount, whose: string): true {
    if (window.count > this.limit) this.refuse(reply, window, whose);
    this.tell(reply, window, this.limit - window.count);
    return true;
  }

  private refuse(reply: FastifyReply, window: WindowCount, whose: string): never {
    const retryAfter = this.tell(reply, window, 0);
    throw new ApiError(429, 'RATE_LIMITED', `More than ${this.limit} requests a minute ${whose}; retry after ${retryAfter} s`, { 'retry-after': String(retryAfter) });
  }

  /** The headers @nestjs/throttler sent before, true per key: the limit, what is left, seconds to the window's end. */
  private tell(reply: FastifyReply, window: WindowCount, remaining: number): number {
    const reset = Math.max(1, Math.ceil(window.resetsInMs / 1000));
    reply.header('x-ratelimit-limit', this.limit);
    reply.header('x-ratelimit-remaining', Math.max(0, remaining));
    reply.header('x-ratelimit-reset', reset);
    return reset;
  }
}

/** The secret as MerchantAuthGuard reads it; anything else authenticates no one. */
function apiSecret(request: FastifyRequest): string | undefined {
  const value = request.headers['x-api-secret'];
  return typeof value === 'string' && value.length > 0 && value.length <= 512 ? value : undefined;
}
