import { isPayoutId, isTransferId, payableKind, streams } from '@app/domain';
import { html, type SafeHtml } from '@app/http';
import type { DatePeriod, NamedMerchant } from '@app/read-models';
import { query } from '../kit/format';
import { periodFields } from '../kit/statement-view';

/** The merchant's statement in this console: `/audit/statement?merchant=…`. */
export const auditStatementHref = (merchantId: string) => `/audit/statement${query({ merchant: merchantId })}`;

/** An escrow opens its timeline; an order, a transfer, a payout or the merchant's payout account, their own events. */
export function auditSource(merchantId: string) {
  return (source: string): string => {
    const kind = payableKind(source);
    if (kind === 'escrow') return `/audit/escrows/${encodeURIComponent(source)}`;
    const stream = kind ? streams[kind](source) : isTransferId(source) ? streams.transfer(source) : isPayoutId(source) ? streams.payout(source) : streams.payouts(merchantId);
    return `/audit/events${query({ stream })}`;
  };
}

/** The merchant field: any id (an allocation's merchant need not be registered), registered ones offered as you type. */
export function merchantField(merchantId: string, merchants: NamedMerchant[]): SafeHtml {
  return html`<div><label for="merchant">Merchant id</label><input id="merchant" name="merchant" required maxlength="200" value="${merchantId}" list="merchants" autocomplete="off">
<datalist id="merchants">${merchants.map((m) => html`<option value="${m.merchantId}">${m.name}</option>`)}</datalist></div>`;
}

/** Before a merchant is chosen: the form alone. */
export function chooseMerchantBody(period: DatePeriod, merchants: NamedMerchant[]): SafeHtml {
  return html`<h1>Statement</h1>
<p>A merchant's payable account over whole days in Addis Ababa: the opening balance, every movement with its source and the balance after it, the closing balance.</p>
<form class="card filters" method="get" action="/audit/statement" aria-label="Merchant and period">
  ${merchantField('', merchants)}
  ${periodFields(period)}
</form>`;
}
