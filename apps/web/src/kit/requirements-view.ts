import type { DocumentKind } from '@app/domain';
import { html, type SafeHtml } from '@app/http';
import { when } from './format';

/** The documents by the names a seller knows them (docs/guides/marketplaces.md#documents). */
export const DOCUMENT_LABELS: Record<DocumentKind, string> = {
  identity: 'Identity document',
  tin_certificate: 'TIN certificate',
  trade_licence: 'Trade licence',
};

export interface RequirementDueView {
  kind: string;
  dueBy: string;
  pastDue: boolean;
}

/** One requirement in words: what, by when, and past due said in words, not by colour alone. */
export const requirementDueText = (r: RequirementDueView): string => `${DOCUMENT_LABELS[r.kind as DocumentKind] ?? r.kind}, due by ${when(r.dueBy)}${r.pastDue ? ' (past due: payouts stopped)' : ''}`;

/** The documents the operator asked for, as a list; `none` when nothing is asked. */
export function requirementsDueList(requirementsDue: readonly RequirementDueView[], id: string): SafeHtml {
  if (requirementsDue.length === 0) return html`<span id="${id}">none</span>`;
  return html`<ul id="${id}">${requirementsDue.map((r) => html`<li data-kind="${r.kind}">${requirementDueText(r)}</li>`)}</ul>`;
}
