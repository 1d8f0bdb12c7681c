import { maskPhone, subtractSantim, ZERO } from '@app/domain';
import type { PaymentMethod } from '@app/payments';
import { html, SafeHtml } from '@app/http';
import { displayEtb } from '../kit/format';
import type { CheckoutView } from '@app/contract';

/** An instant as a customer in Ethiopia reads it: East Africa Time, named. */
export function eastAfricaTime(iso: string): string {
  const text = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Addis_Ababa', dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return `${text} EAT`;
}

/** The items with their line totals, and a line that makes up any difference to the amount, so no two numbers contradict. */
function itemRows(summary: CheckoutView['summary']): SafeHtml[] {
  const rows = summary.items.map(
    (item) =>
      html`<tr><td>${item.name}<br><span class="muted">${item.quantity} × ${displayEtb(item.unitPrice)}</span></td><td>${displayEtb(item.quantity * item.unitPrice)} ETB</td></tr>`,
  );
  const difference = summary.amount - summary.items.reduce((total, item) => total + item.quantity * item.unitPrice, 0);
  if (difference !== 0) rows.push(html`<tr><td>${difference > 0 ? 'Other charges' : 'Discounts'}</td><td>${displayEtb(difference)} ETB</td></tr>`);
  rows.push(html`<tr class="total"><th scope="row">Total</th><td>${displayEtb(summary.amount)} ETB</td></tr>`);
  return rows;
}

const STATUS_WORDS: Readonly<Record<string, string>> = {
  PENDING: 'Awaiting payment',
  PAID: 'Paid',
  FAILED: 'Payment failed',
  EXPIRED: 'Expired unpaid',
  REFUND_PENDING: 'Paid; a refund is on its way',
  REFUNDED: 'Refunded',
  CANCELLED: 'Cancelled',
};

const STYLE = `
  :root { color-scheme: light; --ink: #1b1f24; --muted: #5b6470; --line: #d9dee5; --accent: #0b6e4f; --bad: #b42318; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f4f6f8; }
  main { max-width: 28rem; margin: 0 auto; padding: 1rem; }
  .card { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 1.25rem; }
  h1 { font-size: 1.2rem; margin: 0 0 .25rem; }
  .muted { color: var(--muted); font-size: .95rem; }
  .amount { font-size: 2rem; font-weight: 700; margin: .75rem 0; }
  table { width: 100%; border-collapse: collapse; margin: .5rem 0 1rem; font-size: .95rem; }
  td { padding: .35rem 0; border-bottom: 1px solid var(--line); vertical-align: top; }
  td:last-child { text-align: right; white-space: nowrap; padding-left: .5rem; }
  button, .button { display: block; width: 100%; padding: .9rem; font: inherit; font-weight: 600; border: 0; border-radius: 8px;
    background: var(--accent); color: #fff; cursor: pointer; text-align: center; text-decoration: none; }
  button:disabled { opacity: .6; cursor: wait; }
  button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #f5b400; outline-offset: 2px; }
  label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
  input { width: 100%; padding: .75rem; font: inherit; font-size: 1.25rem; letter-spacing: .3em; border: 1px solid var(--muted); border-radius: 8px; }
  .status { margin: 1rem 0; padding: .75rem; border-radius: 8px; background: #eef6f2; }
  .status.bad { background: #fdecea; color: var(--bad); }
  [hidden] { display: none !important; }
  fieldset { border: 1px solid #d0d5dd; border-radius: 8px; margin: 1rem 0; padding: .5rem 1rem; }
  legend { font-weight: 600; padding: 0 .25rem; }
  label.method { display: flex; align-items: center; gap: .5rem; padding: .5rem 0; min-height: 44px; }
  a { color: var(--accent); }
  label.method input { width: auto; margin: 0; }
  tr.total th, tr.total td { font-weight: 700; border-bottom: 0; padding-top: .6rem; }
  th { text-align: left; font-weight: 600; padding: .35rem .5rem .35rem 0; border-bottom: 1px solid var(--line); vertical-align: top; white-space: nowrap; }
  table.details td:last-child { white-space: normal; overflow-wrap: anywhere; }
  .meta span { overflow-wrap: anywhere; }
  .meta { display: flex; justify-content: space-between; gap: 1rem; flex-wrap: wrap; }
  .progress { height: 4px; border-radius: 2px; background: #dfe7e3; overflow: hidden; margin: .5rem 0 0; }
  .progress span { display: block; height: 100%; width: 40%; background: var(--accent); animation: slide 1.2s ease-in-out infinite; }
  @keyframes slide { from { transform: translateX(-100%); } to { transform: translateX(250%); } }
  @media (prefers-reduced-motion: reduce) { .progress span { animation: none; width: 100%; opacity: .5; } }
  @media print {
    body { background: #fff; }
    main { max-width: none; }
    .card { border: 0; padding: 0; }
    .no-print { display: none !important; }
  }
`;

const SCRIPT = `
(function () {
  var root = document.getElementById('checkout');
  var id = root.getAttribute('data-id');
  var base = '/checkout/' + encodeURIComponent(id);
  var statusBox = document.getElementById('status');
  var payButton = document.getElementById('pay');
  var otpForm = document.getElementById('otp-form');
  var methods = document.getElementById('methods');
  var done = document.getElementById('done');
  var payingFrom = document.getElementById('paying-from');
  var progress = document.getElementById('progress');
  var timeLeft = document.getElementById('time-left');
  var expiresAt = Date.parse(root.getAttribute('data-expires-at'));
  var timer = null;
  function show(text, bad) { statusBox.hidden = false; statusBox.textContent = text; statusBox.className = bad ? 'status bad' : 'status'; }
  function countdown() {
    var left = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
    timeLeft.textContent = Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0') + ' left to pay';
  }
  function render(s) {
    payButton.hidden = s.status !== 'PENDING' || s.waitingForCustomer;
    methods.hidden = payButton.hidden;
    otpForm.hidden = !s.otpRequired;
    progress.hidden = !(s.status === 'PENDING' && s.waitingForCustomer && !s.otpRequired);
    if (s.status !== 'PENDING') { payingFrom.hidden = true; timeLeft.hidden = true; }
    if (s.status === 'PAID') {
      stop(); show('Payment received. Thank you!');
      done.hidden = false;
      var receipt = document.getElementById('receipt'); receipt.href = s.receiptUrl;
      if (s.redirectUrl) {
        var back = document.getElementById('back'); back.href = s.redirectUrl; back.hidden = false;
        setTimeout(function () { window.location.assign(s.redirectUrl); }, 4000);
      }
    } else if (s.status === 'FAILED') {
      stop(); show(s.failureReason === 'INSUFFICIENT_FUNDS' ? 'The payment failed: insufficient funds in the wallet.' : 'The payment failed. No money was taken.', true);
    } else if (s.status === 'EXPIRED') {
      stop(); show('This payment link has expired. Please ask the merchant for a new one.', true);
    } else if (s.status !== 'PENDING') {
      stop(); show('This order can no longer be paid (' + s.status.toLowerCase().replace('_', ' ') + ').', true);
    } else if (s.otpRequired) {
      show('Enter the one-time code sent to your phone.');
    } else if (s.waitingForCustomer) {
      show('Check your phone and approve the payment request. This page updates by itself.');
    }
  }
  function poll() {
    fetch(base + '/status', { headers: { accept: 'application/json' } })
      .then(function (r) { return r.json(); })
      .then(function (body) { render(body.data); })
      .catch(function () {});
  }
  function start() { if (!timer) timer = setInterval(poll, 1000); }
  function stop() { if (timer) clearInterval(timer); timer = null; }
  function post(path, body) {
    return fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body || {}) })
      .then(function (r) { return r.json().then(function (b) { if (!r.ok) throw new Error(b.message || 'Request failed'); return b; }); });
  }
  payButton.addEventListener('click', function () {
    payButton.disabled = true; show('Sending the payment request to your phone…');
    var chosen = methods.querySelector('input[name="method"]:checked');
    post('/pay', chosen ? { method: chosen.value } : {}).then(function (b) { render(b.data); start(); })
      .catch(function (e) { show(e.message, true); })
      .finally(function () { payButton.disabled = false; });
  });
  otpForm.addEventListener('submit', function (event) {
    event.preventDefault();
    var input = document.getElementById('otp');
    post('/otp', { otp: input.value }).then(function () { input.value = ''; otpForm.hidden = true; show('Confirming your payment…'); start(); })
      .catch(function (e) { show(e.message, true); input.focus(); });
  });
  poll();
  countdown(); setInterval(countdown, 1000);
  if (root.getAttribute('data-waiting') === 'true') start();
})();
`;

/** The receipt's one action: print it (the print stylesheet drops the button). */
const PRINT_SCRIPT = `document.getElementById('print').addEventListener('click', function () { window.print(); });`;

function layout(title: string, nonce: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title}</title>
<style nonce="${nonce}">${new SafeHtml(STYLE)}</style>
</head>
<body>${body}</body>
</html>`.value;
}

export function checkoutPage(view: CheckoutView, nonce: string, methods: readonly PaymentMethod[]): string {
  const { summary } = view;
  const waiting = summary.paymentStatus === 'PENDING' && summary.lastPaymentAttempt !== undefined;
  const body = html`
<main id="checkout" data-id="${summary.id}" data-waiting="${waiting ? 'true' : 'false'}" data-expires-at="${summary.expiresAt}">
  <div class="card">
    <h1>Pay ${view.merchantName}</h1>
    <p class="muted">${summary.description ?? ''}</p>
    <p class="meta muted"><span>Order ${summary.merchantOrderId ?? summary.id}</span><span id="time-left">Pay by ${eastAfricaTime(summary.expiresAt)}</span></p>
    <p class="amount" aria-label="Amount to pay">${displayEtb(summary.amount)} ETB</p>
    <table aria-label="Items">
      <tbody>
        ${itemRows(summary)}
      </tbody>
    </table>
    <p id="paying-from" class="muted">Paying from <strong>${maskPhone(summary.phone)}</strong> by mobile money.</p>
    <fieldset id="methods"${new SafeHtml(waiting ? ' hidden' : '')}>
      <legend>Pay with</legend>
      ${methods.map(
        (method, i) =>
          html`<label class="method"><input type="radio" name="method" value="${method.id}"${new SafeHtml(i === 0 ? ' checked' : '')}> ${method.name}${method.otpRequired ? html` <span class="muted">(you will type a code sent to your phone)</span>` : ''}</label>`,
      )}
    </fieldset>
    <div id="status" class="status" role="status" aria-live="polite" hidden></div>
    <div id="progress" class="progress" role="progressbar" aria-label="Waiting for your phone" hidden><span></span></div>
    <button id="pay" type="button">Pay ${displayEtb(summary.amount)} ETB</button>
    <form id="otp-form" hidden>
      <label for="otp">One-time code</label>
      <input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{4,8}" maxlength="8" required>
      <p><button type="submit">Confirm payment</button></p>
    </form>
    <div id="done" hidden>
      <p><a id="receipt" class="button" href="#">View receipt</a></p>
      <p><a id="back" href="#" hidden>Return to the merchant</a></p>
    </div>
  </div>
</main>
<script nonce="${nonce}">${new SafeHtml(SCRIPT)}</script>`;
  return layout(`Pay ${view.merchantName}`, nonce, body);
}

export function messagePage(title: string, message: string, nonce: string): string {
  return layout(title, nonce, html`<main><div class="card"><h1>${title}</h1><p>${message}</p></div></main>`);
}

/**
 * The receipt's status: the payment's, and once any of it goes back, how much of it (an escrow whose
 * sellers were paid part and the customer refunded the rest is PAID to verify, PARTIALLY_REFUNDED itself).
 */
function receiptStatus(summary: CheckoutView['summary']): string {
  const refunded = summary.refunded ?? ZERO;
  if (refunded === 0) return STATUS_WORDS[summary.paymentStatus] ?? summary.paymentStatus.toLowerCase();
  if (summary.status === 'REFUND_PENDING') return STATUS_WORDS.REFUND_PENDING;
  return refunded < summary.amount ? 'Paid; part of it refunded' : STATUS_WORDS.REFUNDED;
}

/** What went back to the customer and what the merchant kept, once anything went back. */
function refundRows(view: CheckoutView): SafeHtml[] {
  const { summary } = view;
  const refunded = summary.refunded ?? ZERO;
  if (refunded === 0) return [];
  return [
    html`<tr><th scope="row">Refunded to you</th><td>${displayEtb(refunded)} ETB</td></tr>`,
    html`<tr><th scope="row">Kept by ${view.merchantName}</th><td>${displayEtb(subtractSantim(summary.amount, refunded))} ETB</td></tr>`,
  ];
}

export function receiptPage(view: CheckoutView, nonce: string): string {
  const { summary } = view;
  const body = html`
<main>
  <div class="card">
    <h1>Receipt</h1>
    <p class="muted">${view.merchantName}</p>
    <p class="amount">${displayEtb(summary.amount)} ETB</p>
    <table class="details" aria-label="Payment details">
      <tbody>
        <tr><th scope="row">Order</th><td>${summary.merchantOrderId ?? summary.id}</td></tr>
        <tr><th scope="row">Status</th><td>${receiptStatus(summary)}</td></tr>
        ${refundRows(view)}
        <tr><th scope="row">Paid at</th><td>${summary.paidAt ? eastAfricaTime(summary.paidAt) : ''}</td></tr>
        <tr><th scope="row">Provider reference</th><td>${summary.paymentReferenceId ?? ''}</td></tr>
        <tr><th scope="row">Customer</th><td>${summary.customerName} (${maskPhone(summary.phone)})</td></tr>
      </tbody>
    </table>
    <table aria-label="Items">
      <tbody>
        ${itemRows(summary)}
      </tbody>
    </table>
    <p class="muted">Times are East Africa Time (EAT, UTC+3).</p>
    <p class="no-print"><button id="print" type="button">Print this receipt</button></p>
  </div>
</main>
<script nonce="${nonce}">${new SafeHtml(PRINT_SCRIPT)}</script>`;
  return layout(`Receipt ${summary.merchantOrderId ?? summary.id}`, nonce, body);
}
