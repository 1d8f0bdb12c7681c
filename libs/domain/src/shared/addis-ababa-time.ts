import { InvalidInput } from './domain-error';

/**
 * Africa/Addis_Ababa is UTC+03:00 all year round: Ethiopia keeps no daylight saving time. Source: the
 * IANA time zone database (tzdata, file `africa`: Africa/Addis_Ababa is a link to Africa/Nairobi,
 * "3:00 - EAT" with no rules since 1942). A fixed offset keeps day and hour arithmetic pure and exact:
 * payout periods, statement days and provider statements all count in it.
 */
export const ADDIS_ABABA_OFFSET_MS = 3 * 3_600_000;
export const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The instant (ms) of the Addis Ababa midnight that starts the local day holding `instant`. */
export function addisMidnight(instant: number): number {
  return Math.floor((instant + ADDIS_ABABA_OFFSET_MS) / DAY_MS) * DAY_MS - ADDIS_ABABA_OFFSET_MS;
}

/** The instants of an Addis Ababa calendar day, `from` included and `to` excluded; undefined for a date that does not exist. */
export function addisDayBounds(day: string): { from: Date; to: Date } | undefined {
  const match = DAY.exec(day);
  const midnightUtc = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  // Date.UTC rolls 2026-02-31 over into March: a date that does not exist is no day.
  if (!match || Number.isNaN(midnightUtc) || new Date(midnightUtc).toISOString().slice(0, 10) !== day) return undefined;
  const from = new Date(midnightUtc - ADDIS_ABABA_OFFSET_MS);
  return { from, to: new Date(from.getTime() + DAY_MS) };
}

/** The instants of an Addis Ababa calendar day, `from` included and `to` excluded. */
export function addisDay(day: string): { from: Date; to: Date } {
  const bounds = addisDayBounds(day);
  if (!bounds) throw new InvalidInput(`${day} is not a date such as 2026-11-25`);
  return bounds;
}

/** The Addis Ababa calendar day (`YYYY-MM-DD`) an instant falls on. */
export function addisDayOf(instant: Date | string | number): string {
  return new Date(new Date(instant).getTime() + ADDIS_ABABA_OFFSET_MS).toISOString().slice(0, 10);
}

/** An instant as Addis Ababa reads it: `2026-11-25T09:30:00.000+03:00`. */
export function addisTime(instant: Date): string {
  return `${new Date(instant.getTime() + ADDIS_ABABA_OFFSET_MS).toISOString().slice(0, 23)}+03:00`;
}
