import { type Mode, parseMode } from '@app/domain';
import { html, type SafeHtml } from '@app/http';

/** The two modes' books, one shown at a time (docs/concepts/modes.md): live's first, as the console opens on them. */
const BOOKS: readonly { mode: Mode; label: string }[] = [
  { mode: 'live', label: 'Live books' },
  { mode: 'test', label: 'Test books' },
];

/** The mode a page of the books asks for: the live books unless the switch asked for the test ones; anything else is refused (INVALID_MODE). */
export function booksMode(asked: string | undefined): Mode {
  return asked?.trim() ? parseMode(asked.trim()) : 'live';
}

/** Which mode's books a page shows, and the switch to the other (the same page, the other mode): never the two added. */
export function booksSwitch(path: string, mode: Mode): SafeHtml {
  return html`<nav class="actions" aria-label="Books of a mode">${BOOKS.map((books) =>
    books.mode === mode
      ? html`<a class="button" href="${path}?mode=${books.mode}" aria-current="page">${books.label}</a>`
      : html`<a class="button secondary" href="${path}?mode=${books.mode}">${books.label}</a>`,
  )}</nav>
${mode === 'test'
    ? html`<p id="books-mode" class="notice warn" role="note">Test mode: the sandbox's money and the test tenants' accounts. None of it is real, and none of it is in the live books.</p>`
    : html`<p id="books-mode" class="notice" role="note">Live mode: real money, the live provider's and the live tenants' accounts. Test money is in the test books only.</p>`}`;
}
