import type { IdempotencyStore } from './idempotency.store';

const BEAT_EVERY_MS = 1_000;

/**
 * The claims this process is working on say so every second, in one statement. A claim drops out
 * of the beat when its request ends, however it ends, so a request that failed without freeing its
 * key (the database was gone) is taken over by the next retry as soon as the beat is missed.
 */
export class ClaimHeartbeat {
  private readonly owners = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly store: IdempotencyStore) {}

  hold(owner: string): void {
    this.owners.add(owner);
    if (!this.timer) {
      this.timer = setInterval(() => void this.beat(), BEAT_EVERY_MS);
      this.timer.unref();
    }
  }

  drop(owner: string): void {
    this.owners.delete(owner);
    if (this.owners.size === 0) this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async beat(): Promise<void> {
    if (this.owners.size === 0) return;
    // A missed beat (the database is away) is what lets others take over: nothing to do but beat again.
    await this.store.beat([...this.owners]).catch(() => undefined);
  }
}
