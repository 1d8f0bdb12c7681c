import { type Account, DOCUMENT_KINDS } from '@app/domain';
import { html, SafeHtml } from '@app/http';
import type { NavLink, PageShell } from '../kit/page';
import { when } from '../kit/format';
import { DOCUMENT_LABELS, type RequirementDueView, requirementsDueList } from '../kit/requirements-view';
import { type PresentedDestination, DOCUMENT_CONTENT_TYPES, MAX_DOCUMENT_BYTES, ONBOARDING_PATH } from '@app/contract';
import { DOCUMENT_FIELD_LABELS, FIELD_LABELS, type FieldError, type OnboardingField } from './onboarding-submission';

/** Where the document form posts (multipart: kit/web-plugins.ts lists it among the upload forms). */
export const ONBOARDING_DOCUMENTS_PATH = `${ONBOARDING_PATH}/documents`;

export const ONBOARDING_BRAND: NavLink = { href: ONBOARDING_PATH, label: 'Seller onboarding' };

export interface OnboardingView {
  csrf: string;
  account: Account;
  destination: PresentedDestination | null;
  /** What the fields show: the account's details, or what the seller sent on a refused form (never the account number). */
  values: Partial<Record<OnboardingField, string>>;
  /** The documents the operator asked of the seller, each saying whether it is past due. */
  requirementsDue: RequirementDueView[];
  /** The kind the document form shows selected: the one sent on a refused upload, else the first asked for. */
  documentKind?: string;
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

/** A refusal of one of the document form's fields, tied to it. */
function documentError(view: OnboardingView, field: keyof typeof DOCUMENT_FIELD_LABELS): { described: string; message: SafeHtml | '' } {
  const error = view.errors.find((e) => e.field === field);
  return error ? { described: `${field}-error`, message: html`<p id="${field}-error" class="field-error">${error.message}</p>` } : { described: '', message: '' };
}

/** What the operator asked for, what arrived, and a form to send a document: its own form, as a file goes as multipart. */
function documentsSection(view: OnboardingView): SafeHtml {
  const received = view.account.documents ?? [];
  const selected = view.documentKind ?? view.requirementsDue[0]?.kind;
  const kind = documentError(view, 'documentKind');
  const file = documentError(view, 'documentFile');
  const fileDescribed = ['documentFile-hint', file.described].filter(Boolean).join(' ');
  return html`<section class="card" id="documents" aria-labelledby="documents-heading">
  <h2 id="documents-heading">Documents</h2>
  ${view.requirementsDue.length > 0
    ? html`<p>Asked of you, each by its date: past it, your payouts stop until the document arrives.</p>${requirementsDueList(view.requirementsDue, 'requirements-due')}`
    : html`<p id="requirements-due">Nothing is asked of you now; you may still send your documents.</p>`}
  ${received.length > 0
    ? html`<h3>Received</h3><ul id="documents-received">${received.map((d) => html`<li data-kind="${d.kind}">${DOCUMENT_LABELS[d.kind]}, ${d.contentType}, ${d.size} bytes, received ${when(d.uploadedAt)}</li>`)}</ul>`
    : ''}
  <form method="post" action="${ONBOARDING_DOCUMENTS_PATH}" enctype="multipart/form-data" novalidate>
    <input type="hidden" name="_csrf" value="${view.csrf}">
    <label for="documentKind">${DOCUMENT_FIELD_LABELS.documentKind}</label>
    ${kind.message}
    <select id="documentKind" name="documentKind"${new SafeHtml(kind.described ? ` aria-describedby="${kind.described}" aria-invalid="true"` : '')}>${DOCUMENT_KINDS.map((k) => kindOption(k, DOCUMENT_LABELS[k], selected))}</select>
    <label for="documentFile">${DOCUMENT_FIELD_LABELS.documentFile}</label>
    <p id="documentFile-hint" class="muted">A PDF, JPEG or PNG of at most ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB: a scan or a clear photo. Kept encrypted, shown only to your marketplace and the payment service.</p>
    ${file.message}
    <input type="file" id="documentFile" name="documentFile" accept="${DOCUMENT_CONTENT_TYPES.join(',')}" aria-describedby="${fileDescribed}"${new SafeHtml(file.described ? ' aria-invalid="true"' : '')}>
    <div class="actions"><button type="submit" class="secondary">Upload the document</button></div>
  </form>
</section>`;
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
<p>Your marketplace pays you through us. Tell us who you are and where your money goes; you return to the marketplace when you save. Send the documents asked of you first.</p>
${documentsSection(view)}
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
