import type { Santim } from '@app/domain';
import type { AuditEvent } from '@app/audit';
import { html, SafeHtml } from '../http/html';
import { etb, when } from './format';

type Data = Record<string, unknown>;

const amount = (data: Data) => (typeof data.amount === 'number' ? etb(data.amount as Santim) : '');

/** One line a person can read for each event of an order's or escrow's stream. */
const DESCRIBE: Record<string, (data: Data) => string> = {
  EscrowCreated: (d) => `Escrow created for ${amount(d)}`,
  OrderCreated: (d) => `Order created for ${amount(d)}`,
  EscrowPaymentInitiated: () => 'Payment request sent to the customer',
  OrderPaymentInitiated: () => 'Payment request sent to the customer',
  EscrowFunded: (d) => `Paid ${amount(d)}: funds held`,
  OrderPaid: (d) => `Paid ${amount(d)}`,
  EscrowPaymentFailed: (d) => `Payment failed (${String(d.reason ?? '')})`,
  OrderPaymentFailed: (d) => `Payment failed (${String(d.reason ?? '')})`,
  EscrowExpired: () => 'Expired unpaid',
  OrderExpired: () => 'Expired unpaid',
  AllocationReleased: (d) =>
    `Released ${amount(d)} to ${String(d.merchantId)}${typeof d.fee === 'number' && d.fee > 0 ? `, fee ${etb(d.fee as Santim)}` : ''}${d.automatic ? ' (automatic release)' : ''}`,
  AutoReleaseRescheduled: (d) => (d.autoReleaseAt ? `Automatic release moved to ${when(String(d.autoReleaseAt))}` : 'Automatic release cleared'),
  DisputeOpened: (d) => `Dispute opened on ${(d.merchantIds as string[]).join(', ')}: ${String(d.reason)}`,
  DisputeResolved: (d) =>
    `Dispute resolved: ${(d.resolutions as { merchantId: string; release: Santim; refund: Santim }[]).map((r) => `${r.merchantId} ${etb(r.release)} released, ${etb(r.refund)} refunded`).join('; ')}`,
  EscrowCancelled: (d) => `Cancelled${d.reason ? `: ${String(d.reason)}` : ''}`,
  EscrowPaymentRefused: (d) => `A late payment of ${amount(d)} was refused`,
  OrderPaymentRefused: (d) => `A late payment of ${amount(d)} was refused`,
  EscrowRefundRequested: (d) => `Refund of ${amount(d)} requested${d.note ? `: ${String(d.note)}` : ''}`,
  OrderRefundRequested: (d) => `Refund of ${amount(d)} requested${d.note ? `: ${String(d.note)}` : ''}`,
  EscrowRefundFailed: (d) => `The provider refused the refund (${String(d.reason ?? '')}); it will be retried`,
  OrderRefundFailed: (d) => `The provider refused the refund (${String(d.reason ?? '')}); it will be retried`,
  EscrowRefundCompleted: () => 'Refund confirmed by the provider',
  OrderRefundCompleted: () => 'Refund confirmed by the provider',
};

export function describeEvent(event: Pick<AuditEvent, 'type' | 'data'>): string {
  const describe = DESCRIBE[event.type];
  return describe ? describe((event.data ?? {}) as Data) : event.type;
}

/** An ordered list of events; `link` adds a per-event control, `current` marks one revision. */
export function timeline(events: AuditEvent[], options: { link?: (event: AuditEvent) => SafeHtml; current?: string } = {}): SafeHtml {
  return html`<ol class="timeline" aria-label="Event timeline">${events.map(
    (event) => html`<li${new SafeHtml(event.revision === options.current ? ' class="current" aria-current="step"' : '')}>
<strong>${describeEvent(event)}</strong><br><span class="muted">${when(event.recordedAt)} · ${event.type} · revision ${event.revision}</span>${options.link ? html` ${options.link(event)}` : ''}</li>`,
  )}</ol>`;
}
