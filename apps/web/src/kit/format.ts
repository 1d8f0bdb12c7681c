import { addisTime, type Santim } from '@app/domain';
import { html, type SafeHtml } from '@app/http';

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `1,500.00`: as people read amounts on every page, two decimals and thousands separators, from integer santim (signed). */
export function displayEtb(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const santimAmount = Math.abs(amount);
  return `${sign}${groupThousands(String(Math.trunc(santimAmount / 100)))}.${String(santimAmount % 100).padStart(2, '0')}`;
}

export function etb(amount: Santim): string {
  return `${displayEtb(amount)} ETB`;
}

/** The ledger reader already converted to ETB (exact two-decimal numbers); shown the same way. */
export function etbNumber(amount: number): string {
  return `${displayEtb(Math.round(amount * 100))} ETB`;
}

export function when(iso: string | Date | undefined): string {
  if (!iso) return '';
  return new Date(iso).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

/** The Addis Ababa wall clock of an instant, to the minute: `2026-11-25 14:05` (the domain's addisTime, as a page shows it). */
export function addisClock(instant: Date | string): string {
  return addisTime(new Date(instant)).slice(0, 16).replace('T', ' ');
}

/** A payout schedule's hour of the day, as the pages say it: `09:00 Addis Ababa time`. */
export function addisHour(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00 Addis Ababa time`;
}

export function statusBadge(status: string): SafeHtml {
  return html`<span class="status">${status.replace(/_/g, ' ')}</span>`;
}

export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
