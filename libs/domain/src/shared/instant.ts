import { InvalidInput } from './domain-error';

/** Every instant the API takes (periods, asOf, expiry, audit filters) is refused with this code when it is not one. */
export const INVALID_DATE_TIME = 'INVALID_DATE_TIME';

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * An ISO 8601 date-time with its zone, read strictly. Date.parse reads 2026-02-30 as March 2 and
 * T24:00 as the next midnight: a statement asked for a period that does not exist would silently
 * show another one. A date or time that does not exist is refused instead, as is one without a
 * zone (Date.parse would read it in the server's own).
 */
export function parseInstant(value: unknown, field: string): Date {
  const match = typeof value === 'string' ? INSTANT.exec(value) : null;
  if (!match) throw new InvalidInput(`${field} must be an ISO 8601 date-time with a time zone, such as 2026-11-01T00:00:00Z`, INVALID_DATE_TIME);
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = match.slice(1);
  const lastDay = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  const exists =
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= lastDay &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHours) <= 23 &&
    Number(offsetMinutes) <= 59;
  if (!exists) throw new InvalidInput(`${field} ${value as string} is not a date and time that exists`, INVALID_DATE_TIME);
  return new Date(Date.parse(value as string));
}
