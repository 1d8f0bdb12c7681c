/**
 * Lets a journey time its requests to an API kill: the fault injector announces each one a moment
 * before it kills, so that work the service does on a request's behalf (a refund's confirmation, a
 * payment's notification) falls due while that API is down.
 */
export class ApiKillWarning {
  private waiting: (() => void)[] = [];

  /** Resolves true at the next announcement, or false after `timeoutMs` without one. */
  next(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w !== wake);
        resolve(false);
      }, timeoutMs);
      this.waiting.push(wake);
    });
  }

  announce(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }
}
