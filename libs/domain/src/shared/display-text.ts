import { InvalidInput } from './domain-error';

/** A name or reason that people read on a screen, refused for what it would hide from them. */
export const INVALID_DISPLAY_TEXT = 'INVALID_DISPLAY_TEXT';

/**
 * Control (Cc: a newline, a tab), format (Cf: a right-to-left override U+202E, the zero-width
 * U+200B-200D, U+2060 and U+FEFF) and line or paragraph separator (Zl U+2028, Zp U+2029) characters
 * make text read differently from what it holds: "Abebe" with an override shows its letters reversed,
 * with a zero-width space it looks like another name, a separator breaks one line into two on a
 * statement or in a log.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * What shows as nothing: spaces of every kind (White_Space), the Hangul fillers (U+115F, U+1160,
 * U+3164, U+FFA0: letters to Unicode, blank on screen) and the blank braille pattern U+2800.
 */
const BLANK_LOOKING = /[\p{White_Space}\u115F\u1160\u3164\uFFA0\u2800]/gu;

const VISIBLE_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function refuseHidden(value: string, field: string): void {
  const hidden = HIDDEN.exec(value);
  if (hidden) {
    const code = hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new InvalidInput(`${field} must not hold control, format or line-breaking characters (U+${code} at position ${hidden.index + 1}): they change how it reads on screen`, INVALID_DISPLAY_TEXT);
  }
}

/** One line of text as it looks (an id or reference of the caller's): nothing in it people cannot see, nothing that breaks the line. */
export function checkSingleLineText(value: string, field: string): void {
  refuseHidden(value, field);
}

/** Text shown to people as a description or a reason: not blank (nor made of blank-looking characters), one line, nothing hidden. */
export function checkDisplayText(value: string, field: string): void {
  if (value.replace(BLANK_LOOKING, '') === '') throw new InvalidInput(`${field} must not be blank`, INVALID_DISPLAY_TEXT);
  refuseHidden(value, field);
}

/** A name: display text with at least one visible letter or digit (a name of dots or fillers names no one). */
export function checkDisplayName(value: string, field: string): void {
  checkDisplayText(value, field);
  if (!VISIBLE_LETTER_OR_DIGIT.test(value.replace(BLANK_LOOKING, ''))) throw new InvalidInput(`${field} must contain a letter or a digit`, INVALID_DISPLAY_TEXT);
}
