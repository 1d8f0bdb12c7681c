/** A value as COPY reads it: text in the column type's input syntax, null as NULL. */
export type CopyValue = string | number | bigint | boolean | Date | object | null | undefined;

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A value in COPY's text format. A Date as JSON writes it (ISO 8601, milliseconds, UTC) and any other
 * object as its JSON, so a row copied reads back exactly as the same row sent as JSON would: the
 * rebuild's copies must equal what the live projector writes that way.
 */
function field(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  const text = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c]);
}

/** Rows in COPY's text format: a line each, tab-separated. */
export function copyText(rows: readonly (readonly CopyValue[])[]): string {
  let text = '';
  for (const row of rows) text += `${row.map(field).join('\t')}\n`;
  return text;
}
