import { formatEtb, maskPhone } from '@app/domain';
import type { PaymentMethod } from '@app/payments';
import { html, SafeHtml } from '../../http/html';
import type { CheckoutView } from './get-checkout.query';

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
  var timer = null;
  function show(text, bad) { statusBox.hidden = false; statusBox.textContent = text; statusBox.className = bad ? 'status bad' : 'status'; }
  function render(s) {
    payButton.hidden = s.status !== 'PENDING' || s.waitingForCustomer;
    methods.hidden = payButton.hidden;
    otpForm.hidden = !s.otpRequired;
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
  if (root.getAttribute('data-waiting') === 'true') start();
})();
`;

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
<main id="checkout" data-id="${summary.id}" data-waiting="${waiting ? 'true' : 'false'}">
  <div class="card">
    <h1>Pay ${view.merchantName}</h1>
    <p class="muted">${summary.description ?? ''}</p>
    <p class="amount" aria-label="Amount to pay">${formatEtb(summary.amount)} ETB</p>
    <table aria-label="Items">
      <tbody>
        ${summary.items.map((item) => html`<tr><td>${item.quantity} × ${item.name}</td><td>${formatEtb(item.unitPrice)} ETB</td></tr>`)}
      </tbody>
    </table>
    <p class="muted">Paying from <strong>${maskPhone(summary.phone)}</strong> by mobile money.</p>
    <fieldset id="methods"${new SafeHtml(waiting ? ' hidden' : '')}>
      <legend>Pay with</legend>
      ${methods.map(
        (method, i) =>
          html`<label class="method"><input type="radio" name="method" value="${method.id}"${new SafeHtml(i === 0 ? ' checked' : '')}> ${method.name}${method.otpRequired ? html` <span class="muted">(you will type a code sent to your phone)</span>` : ''}</label>`,
      )}
    </fieldset>
    <div id="status" class="status" role="status" aria-live="polite" hidden></div>
    <button id="pay" type="button">Pay ${formatEtb(summary.amount)} ETB</button>
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

export function receiptPage(view: CheckoutView, nonce: string): string {
  const { summary } = view;
  const body = html`
<main>
  <div class="card">
    <h1>Receipt</h1>
    <p class="muted">${view.merchantName}</p>
    <p class="amount">${formatEtb(summary.amount)} ETB</p>
    <table aria-label="Payment details">
      <tbody>
        <tr><td>Order</td><td>${summary.merchantOrderId ?? summary.id}</td></tr>
        <tr><td>Paid at</td><td>${summary.paidAt ? new Date(summary.paidAt).toUTCString() : ''}</td></tr>
        <tr><td>Provider reference</td><td>${summary.paymentReferenceId ?? ''}</td></tr>
        <tr><td>Customer</td><td>${summary.customerName} (${maskPhone(summary.phone)})</td></tr>
        ${summary.items.map((item) => html`<tr><td>${item.quantity} × ${item.name}</td><td>${formatEtb(item.unitPrice)} ETB</td></tr>`)}
      </tbody>
    </table>
    <p class="muted">Status: ${summary.paymentStatus}</p>
  </div>
</main>`;
  return layout(`Receipt ${summary.merchantOrderId ?? summary.id}`, nonce, body);
}
