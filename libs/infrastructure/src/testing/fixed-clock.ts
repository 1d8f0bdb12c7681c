import type { Clock } from '../clock';

/** A clock that stands still at `at` until a test moves it: what a rule decides then depends on the test, not on when it runs. */
export class FixedClock implements Clock {
  private instant: number;

  constructor(at: string | number | Date) {
    this.instant = new Date(at).getTime();
  }

  now(): Date {
    return new Date(this.instant);
  }

  advance(ms: number): void {
    this.instant += ms;
  }
}
