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

/**
 * RFC 9110 HTTP-date: IMF-fixdate, obsolete RFC 850, or asctime (which carries no zone: it is GMT).
 * Date.parse alone also reads garbage such as "1.5", "-5" or "abc 12" as dates in 2001, which
 * would turn a malformed header into an immediate retry.
 */
const IMF_FIXDATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC_850 = /^[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = IMF_FIXDATE.test(text) || RFC_850.test(text) ? Date.parse(text) : ASCTIME.test(text) ? Date.parse(`${text} GMT`) : NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
