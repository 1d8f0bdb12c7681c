/** Retry-After is honoured up to a day; a longer ask is capped rather than trusted. */
const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * The wait before retry number `round` (0-based): the schedule's step with ±20% jitter, so many
 * receivers failing at once are not retried in lockstep, or the receiver's Retry-After when it gave one.
 */
export function retryDelay(schedule: readonly number[], round: number, retryAfterMs: number | undefined, random = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(retryAfterMs, 0), MAX_RETRY_AFTER_MS);
  const base = schedule[Math.min(round, schedule.length - 1)];
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
