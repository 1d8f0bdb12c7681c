/**
 * JSON with object keys sorted at every level: the same value always has the same text, whatever
 * order a database (jsonb) or a serialiser returns its keys in.
 *
 * Written in one pass, as JSON.stringify would write the value (toJSON, boxed primitives, omitted
 * undefined and functions, holes as null), because hashes already stored were computed as
 * stringify → parse → sort → stringify, and every command seals and fingerprints with it.
 */
export function canonicalJson(value: unknown): string {
  return write(value ?? null, '') ?? 'null';
}

function write(input: unknown, key: string): string | undefined {
  let value = input;
  if (value !== null && typeof value === 'object') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
    if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  }
  switch (typeof value) {
    case 'string':
      // A text with nothing JSON escapes is quoted as it is: JSON.stringify costs about twice that per value.
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
    case 'number':
    case 'bigint':
      // JSON.stringify's own escaping and number format (and its refusal of a bigint).
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      // Concatenated as it goes: no array of member texts per object (every command seals and fingerprints here).
      if (Array.isArray(value)) {
        let text = '[';
        for (let i = 0; i < value.length; i++) text += `${i === 0 ? '' : ','}${write(value[i], String(i)) ?? 'null'}`;
        return `${text}]`;
      }
      const source = value as Record<string, unknown>;
      let text = '{';
      for (const name of memberOrder(source)) {
        const member = write(source[name], name);
        if (member !== undefined) text += `${text.length === 1 ? '' : ','}${quoted(name)}:${member}`;
      }
      return `${text}}`;
    }
    default:
      return undefined;
  }
}

/**
 * Member names as JSON writes them, by name: the same few names (an event's, an escrow's) are written
 * for every event sealed and every request fingerprinted. Bounded, because metadata names are the
 * caller's: past the bound a name is quoted each time, as before.
 */
const QUOTED = new Map<string, string>();
const QUOTED_NAMES = 2_048;

function quoted(name: string): string {
  let text = QUOTED.get(name);
  if (text === undefined) {
    text = JSON.stringify(name);
    if (QUOTED.size < QUOTED_NAMES) QUOTED.set(name, text);
  }
  return text;
}

/** What JSON.stringify writes escaped in a text: a quote, a backslash, a control character, a surrogate (one of a pair is written as it is, but JSON.stringify is left to tell). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
const MAX_ARRAY_INDEX = 2 ** 32 - 2;

/**
 * Sorted keys, as an object rebuilt from them lists them: JavaScript puts array-index keys ("0",
 * "7") first in numeric order whatever the insertion order, so the stored texts have them first too.
 * Object.keys already lists them first, in that order.
 */
function memberOrder(source: object): string[] {
  const names = Object.keys(source);
  let indexes = 0;
  while (indexes < names.length && ARRAY_INDEX.test(names[indexes]) && Number(names[indexes]) <= MAX_ARRAY_INDEX) indexes++;
  if (indexes === 0) return sorted(names);
  return [...names.slice(0, indexes), ...sorted(names.slice(indexes))];
}

/** An object's few names: sorted in place by insertion, as sort() orders them (by UTF-16 code units), at a third of its cost; many, by sort() itself. */
const FEW_NAMES = 16;

function sorted(names: string[]): string[] {
  if (names.length > FEW_NAMES) return names.sort();
  for (let i = 1; i < names.length; i++) {
    const name = names[i];
    let j = i - 1;
    for (; j >= 0 && names[j] > name; j--) names[j + 1] = names[j];
    names[j + 1] = name;
  }
  return names;
}
