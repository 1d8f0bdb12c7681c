import { InvalidInput } from '@app/domain';

/** Africa/Addis_Ababa is UTC+3 all year (Ethiopia keeps no daylight saving time). */
const ADDIS_OFFSET_MS = 3 * 3_600_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The instants of an Addis Ababa calendar day, `from` included and `to` excluded. */
export function addisDay(day: string): { from: Date; to: Date } {
  const match = DAY.exec(day);
  const midnightUtc = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || Number.isNaN(midnightUtc) || new Date(midnightUtc).toISOString().slice(0, 10) !== day) {
    throw new InvalidInput(`${day} is not a date such as 2026-11-25`);
  }
  const from = new Date(midnightUtc - ADDIS_OFFSET_MS);
  return { from, to: new Date(from.getTime() + 86_400_000) };
}

/** The Addis Ababa calendar day an instant falls on. */
export function addisDayOf(instant: Date): string {
  return new Date(instant.getTime() + ADDIS_OFFSET_MS).toISOString().slice(0, 10);
}

/** An instant as Addis Ababa reads it: `2026-11-25T09:30:00.000+03:00`. */
export function addisTime(instant: Date): string {
  return `${new Date(instant.getTime() + ADDIS_OFFSET_MS).toISOString().slice(0, 23)}+03:00`;
}
