import { InvalidInput } from './domain-error';

/** A name or reason that people read on a screen, refused for what it would hide from them. */
export const INVALID_DISPLAY_TEXT = 'INVALID_DISPLAY_TEXT';

/**
 * Control (Cc: a newline, a tab) and format (Cf: a right-to-left override U+202E, the zero-width
 * U+200B-200D, U+2060 and U+FEFF) characters make text read differently from what it holds: "Abebe"
 * with an override shows its letters reversed, with a zero-width space it looks like another name.
 */
const HIDDEN = /[\p{Cc}\p{Cf}]/u;

/** Text shown to people as a name or a reason: not blank, and nothing in it they cannot see. */
export function checkDisplayText(value: string, field: string): void {
  if (value.trim() === '') throw new InvalidInput(`${field} must not be blank`, INVALID_DISPLAY_TEXT);
  const hidden = HIDDEN.exec(value);
  if (hidden) {
    const code = hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new InvalidInput(`${field} must not hold control or format characters (U+${code} at position ${hidden.index + 1}): they change how it reads on screen`, INVALID_DISPLAY_TEXT);
  }
}
