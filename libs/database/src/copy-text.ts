/** A value as COPY reads it: text in the column type's input syntax, null as NULL. */
export type CopyValue = string | number | bigint | boolean | Date | object | null | undefined;

const SPECIAL = /[\\\n\r\t]/;
const SPECIALS = /[\\\n\r\t]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escape = (c: string) => ESCAPES[c];

/**
 * A value in COPY's text format. A Date as JSON writes it (ISO 8601, milliseconds, UTC) and any other
 * object as its JSON, so a row copied reads back exactly as the same row sent as JSON would: the
 * rebuild's copies must equal what the live projector writes that way. Most values need no escape:
 * testing first costs far less than replacing in each (a rebuild encodes millions).
 */
function field(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return SPECIAL.test(text) ? text.replace(SPECIALS, escape) : text;
}

/** Rows in COPY's text format: a line each, tab-separated. */
export function copyText(rows: readonly (readonly CopyValue[])[]): string {
  let text = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) text += i === 0 ? field(row[i]) : `\t${field(row[i])}`;
    text += '\n';
  }
  return text;
}
