/** A key's requests in its current window. */
export interface WindowCount {
  count: number;
  /** Milliseconds until the window closes and the key starts again from zero. */
  resetsInMs: number;
}

/**
 * Requests counted per key in fixed windows: a key's window opens with its first request and closes
 * `windowMs` later, whatever came in between. Counts shared by every API replica (Redis, PostgreSQL)
 * make one limit for all of them; counts in the process make one per process.
 */
export interface WindowCounts {
  /** Counts one request of the key: its count with this one. */
  add(key: string): Promise<WindowCount>;
  /** The key's count so far, without counting (0 when it has no open window). */
  peek(key: string): Promise<WindowCount>;
}

/** The embedded mode's counts (PGlite: one process serves). */
export class InProcessWindowCounts implements WindowCounts {
  private readonly windows = new Map<string, { count: number; closesAt: number }>();

  constructor(private readonly windowMs: number) {}

  async add(key: string): Promise<WindowCount> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.closesAt <= now) {
      if (!window) this.forgetClosed(now);
      window = { count: 0, closesAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetsInMs: window.closesAt - now };
  }

  async peek(key: string): Promise<WindowCount> {
    const now = Date.now();
    const window = this.windows.get(key);
    return window && window.closesAt > now ? { count: window.count, resetsInMs: window.closesAt - now } : { count: 0, resetsInMs: this.windowMs };
  }

  /** A new key sweeps the closed windows once the map has grown, so addresses seen once do not pile up. */
  private forgetClosed(now: number): void {
    if (this.windows.size < 1_000) return;
    for (const [key, window] of this.windows) if (window.closesAt <= now) this.windows.delete(key);
  }
}
