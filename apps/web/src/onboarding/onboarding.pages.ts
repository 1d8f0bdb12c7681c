import type { Account } from '@app/domain';
import { html, SafeHtml } from '@app/http';
import type { NavLink, PageShell } from '../kit/page';
import { type PresentedDestination, ONBOARDING_PATH } from '@app/contract';
import { FIELD_LABELS, type FieldError, type OnboardingField } from './onboarding-submission';

export const ONBOARDING_BRAND: NavLink = { href: ONBOARDING_PATH, label: 'Seller onboarding' };

export interface OnboardingView {
  csrf: string;
  account: Account;
  destination: PresentedDestination | null;
  /** What the fields show: the account's details, or what the seller sent on a refused form (never the account number). */
  values: Partial<Record<OnboardingField, string>>;
  errors: FieldError[];
}

interface FieldOptions {
  hint?: string;
  type?: string;
  autocomplete?: string;
  inputmode?: string;
  required?: boolean;
  maxlength: number;
}

/** A labelled input, its hint and its error tied to it (aria-describedby), marked invalid when refused. */
function input(view: OnboardingView, name: OnboardingField, options: FieldOptions): SafeHtml {
  const error = view.errors.find((e) => e.field === name);
  const described = [options.hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  const attributes = [
    `type="${options.type ?? 'text'}"`,
    options.autocomplete ? `autocomplete="${options.autocomplete}"` : '',
    options.inputmode ? `inputmode="${options.inputmode}"` : '',
    options.required ? 'required' : '',
    `maxlength="${options.maxlength}"`,
    described ? `aria-describedby="${described}"` : '',
    error ? 'aria-invalid="true"' : '',
  ].filter(Boolean);
  return html`<label for="${name}">${FIELD_LABELS[name]}</label>
${options.hint ? html`<p id="${name}-hint" class="muted">${options.hint}</p>` : ''}
${error ? html`<p id="${name}-error" class="field-error">${error.message}</p>` : ''}
<input id="${name}" name="${name}" ${new SafeHtml(attributes.join(' '))} value="${view.values[name] ?? ''}">`;
}

/** The refusals at the top, each a link to its field, focused first when the page loads (a form the browser's own checks let through). */
function errorSummary(errors: FieldError[]): SafeHtml | '' {
  if (errors.length === 0) return '';
  return html`<div class="notice bad" role="alert" aria-labelledby="error-summary-title" id="error-summary" tabindex="-1">
  <h2 id="error-summary-title">Please correct ${errors.length === 1 ? 'this' : `these ${errors.length}`} to continue</h2>
  <ul>${errors.map((e) => html`<li>${e.field ? html`<a href="#${e.field}">${e.message}</a>` : e.message}</li>`)}</ul>
</div>`;
}

const kindOption = (value: string, label: string, selected: string | undefined) => html`<option value="${value}"${new SafeHtml(selected === value ? ' selected' : '')}>${label}</option>`;

/** The hosted page: the seller's legal details and its payout destination in one form, which works without script. */
export function onboardingPage(view: OnboardingView): PageShell {
  const { account, destination } = view;
  const business = account.type === 'business';
  return {
    title: view.errors.length > 0 ? 'Error: Your details' : 'Your details',
    brand: ONBOARDING_BRAND,
    narrow: true,
    body: html`<h1>Your details for payouts</h1>
${errorSummary(view.errors)}
<p>Your marketplace pays you through us. Tell us who you are and where your money goes; you return to the marketplace when you save.</p>
<form method="post" action="${ONBOARDING_PATH}" novalidate>
  <input type="hidden" name="_csrf" value="${view.csrf}">
  <fieldset class="card">
    <legend>Legal details</legend>
    ${input(view, 'name', { required: true, autocomplete: 'organization', maxlength: 200, hint: 'As registered: payouts go only to an account held in this name.' })}
    ${input(view, 'tin', { inputmode: 'numeric', maxlength: 10, autocomplete: 'off', hint: `Taxpayer identification number, 10 digits${business ? '; required of a business' : ''}.` })}
    ${business ? input(view, 'tradeLicenceNumber', { maxlength: 100, autocomplete: 'off', hint: 'Required of a business.' }) : ''}
    ${input(view, 'email', { type: 'email', autocomplete: 'email', maxlength: 254 })}
    ${input(view, 'phone', { type: 'tel', autocomplete: 'tel', maxlength: 20, hint: 'An Ethiopian mobile number, such as 0911234567.' })}
  </fieldset>
  <fieldset class="card">
    <legend>Payout destination</legend>
    ${destination
      ? html`<p id="current-destination">Now: ${destination.kind === 'bank' ? 'bank' : 'wallet'} ${destination.institution} ${destination.accountNumber}, held by ${destination.holderName}. Leave these fields empty to keep it.</p>`
      : html`<p id="current-destination">Where your payouts go: a bank account or a mobile wallet.</p>`}
    <label for="kind">${FIELD_LABELS.kind}</label>
    <select id="kind" name="kind">${kindOption('bank', 'Bank account', view.values.kind ?? 'bank')}${kindOption('wallet', 'Mobile wallet', view.values.kind)}</select>
    ${input(view, 'institution', { required: !destination, maxlength: 40, autocomplete: 'off', hint: "The bank's code (such as 946), or the wallet (telebirr, mpesa)." })}
    ${input(view, 'accountNumber', { required: !destination, inputmode: 'numeric', autocomplete: 'off', maxlength: 40, hint: '6 to 30 digits; kept encrypted, shown only as its last four digits.' })}
    ${input(view, 'holderName', { required: !destination, autocomplete: 'name', maxlength: 200, hint: 'The name on the account: your legal name above.' })}
  </fieldset>
  <div class="actions"><button type="submit">Save and return to the marketplace</button></div>
</form>`,
  };
}

/** A link opened already or expired, or a page left too long: the seller asks the platform for a new one. */
export function linkSpentPage(refreshUrl: string): PageShell {
  return {
    title: 'This link has expired',
    brand: ONBOARDING_BRAND,
    narrow: true,
    body: html`<h1>This link has expired</h1>
<div class="card">
  <p>Links to this page work once, for a short time. Your marketplace gives you a new one.</p>
  <div class="actions"><a class="button" id="refresh" href="${refreshUrl}">Get a new link</a></div>
</div>`,
  };
}

/** No link opened this page: nothing to fill in. */
export function noLinkPage(): PageShell {
  return {
    title: 'Open your link',
    brand: ONBOARDING_BRAND,
    narrow: true,
    body: html`<h1>Open the link your marketplace gave you</h1>
<div class="card"><p>This page opens from the link your marketplace sends you to; go back to the marketplace and start again there.</p></div>`,
  };
}
