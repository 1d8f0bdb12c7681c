import { InvalidInput, parseInstant } from '@app/domain';

/** An instant of the query string (parseInstant), or none when left out or empty. */
export function optionalInstant(value: string | undefined, field: string): Date | undefined {
  return value === undefined || value === '' ? undefined : parseInstant(value, field);
}

export function parseLimit(value: string | undefined, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > max) throw new InvalidInput(`limit must be an integer from 1 to ${max}`);
  return limit;
}
