import { formatEtb, type Santim } from '@app/domain';
import { html, type SafeHtml } from '../http/html';

/** Amounts as people read them on a statement: always two decimals, from integer santim. */
export function etb(amount: Santim): string {
  const text = formatEtb(amount);
  const [whole, cents = ''] = text.split('.');
  return `${whole}.${cents.padEnd(2, '0')} ETB`;
}

/** The ledger reader already converted to ETB (exact two-decimal numbers); shown the same way. */
export function etbNumber(amount: number): string {
  return `${amount.toFixed(2)} ETB`;
}

export function when(iso: string | Date | undefined): string {
  if (!iso) return '';
  return new Date(iso).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
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
