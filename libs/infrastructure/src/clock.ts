/**
 * Where the rules read the time: every rule that depends on it (an order's expiry, an automatic
 * release, a holding period, a payout schedule, an alert's age, a callback's next attempt, the `at` a
 * handler stamps into a command) asks a Clock, never `Date` itself. Deciders stay pure: they are
 * given the time in the command. Measurements, log lines, credentials' lifetimes and the time an event
 * is appended read the real time on purpose (docs/concepts/time.md says which and why), so a clock
 * that is moved never stretches a session or falsifies the audit trail.
 */
export interface Clock {
  now(): Date;
}

/** Inject a Clock under this token (InfrastructureModule provides the system clock). */
export const CLOCK = Symbol('CLOCK');

/** The real time, as the operating system tells it. */
export const systemClock: Clock = { now: () => new Date() };
