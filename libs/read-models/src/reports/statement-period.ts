import { addisDayBounds, addisDayOf, DAY_MS, InvalidInput, parseInstant } from '@app/domain';

export interface StatementPeriod {
  /** Instants (ISO 8601, UTC): the period is [from, to). */
  from: string;
  to: string;
}

/** The API's period: two instants with their zone, the first before the second. */
export function statementPeriod(from: unknown, to: unknown): StatementPeriod {
  const period = { from: parseInstant(from, 'from').toISOString(), to: parseInstant(to, 'to').toISOString() };
  if (Date.parse(period.from) >= Date.parse(period.to)) throw new InvalidInput('from must be before to');
  return period;
}

/** The consoles' period: whole days in Addis Ababa, the first and the last included. */
export interface DatePeriod extends StatementPeriod {
  fromDate: string;
  toDate: string;
}

/** Midnight starting that Addis Ababa day (the consoles date statements in the merchants' own zone), in milliseconds. */
function startOfDay(date: string, name: string): number {
  const bounds = addisDayBounds(date);
  if (!bounds) throw new InvalidInput(`${name} must be a date such as 2026-11-01`);
  return bounds.from.getTime();
}

export function datePeriod(fromDate: string, toDate: string): DatePeriod {
  const start = startOfDay(fromDate, 'The first day');
  const end = startOfDay(toDate, 'The last day') + DAY_MS;
  if (start >= end) throw new InvalidInput('The first day must not be after the last day');
  return { fromDate, toDate, from: new Date(start).toISOString(), to: new Date(end).toISOString() };
}

/** The month an instant falls in, in Addis Ababa: the period a statement shows unless asked for another. */
export function monthOf(now: Date): DatePeriod {
  const today = addisDayOf(now);
  const [year, month] = today.split('-').map(Number);
  const last = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return datePeriod(`${today.slice(0, 7)}-01`, last);
}

/** The period a console's form asks for; a missing day falls back to this month's. */
export function requestedPeriod(params: { from?: string; to?: string }, now: Date): DatePeriod {
  const month = monthOf(now);
  return datePeriod(params.from?.trim() || month.fromDate, params.to?.trim() || month.toDate);
}
