import fc from 'fast-check';

/**
 * JSON as a client could send it, not as JSON.stringify would: objects keep duplicate and
 * `__proto__` keys (an object literal drops `__proto__`, JSON text does not), and numbers can be
 * written as any literal (`1e309` parses to Infinity, `9007199254740993` loses precision).
 */
export type JsonText = null | boolean | string | JsonRaw | JsonObject | JsonText[];

/** A literal written as is: a number JSON.stringify cannot produce. */
export class JsonRaw {
  constructor(readonly text: string) {}
}

export class JsonObject {
  constructor(readonly entries: Array<[string, JsonText]>) {}
}

export function toJsonText(value: JsonText): string {
  if (value instanceof JsonRaw) return value.text;
  if (value instanceof JsonObject) return `{${value.entries.map(([key, child]) => `${JSON.stringify(key)}:${toJsonText(child)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  return JSON.stringify(value);
}

/** A plain JSON value (a valid request body) in this representation, so it can be mutated. */
export function fromValue(value: unknown): JsonText {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return new JsonRaw(JSON.stringify(value));
  if (Array.isArray(value)) return value.map(fromValue);
  if (typeof value === 'object') return new JsonObject(Object.entries(value as object).map(([key, child]) => [key, fromValue(child)]));
  throw new Error(`not JSON: ${String(value)}`);
}

// ---- hostile leaves ----------------------------------------------------------------------------

const NUMBER_LITERALS = [
  '1e309', '-1e309', '1e308', '9007199254740993', '-9007199254740993', '9007199254740991', '-0', '0', '-1', '-0.01',
  '0.001', '1.005', '0.1', '1e-7', '1e-400', '123456789012345678901234567890', '100000000000000000000.5', '2147483648', '4294967296',
];

const STRING_CONSTANTS = [
  '', ' ', 'NaN', 'Infinity', '-Infinity', '1e309', '0x10', ' 12 ', '12abc', 'null', 'true', '[]', '{}',
  '\u0000', 'a\u0000b', '\ud800', '\udc00x', 'x\ud83d', '\u202eevil\u202c', 'שלום', 'مرحبا', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '\ufeff', '\u200b',
  "' OR '1'='1", '"; DROP TABLE events; --', '<script>alert(1)</script>', '../../etc/passwd', '${jndi:ldap://x}', '%00', '\\u0000',
  '__proto__', 'constructor', 'prototype', 'ETB', 'PAID', '+251900000000', '0911234567',
];

export const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...STRING_CONSTANTS), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), loneSurrogate), maxLength: 20 }), weight: 1 },
  { arbitrary: fc.constantFrom(1024, 1025, 5000, 70_000).map((length) => 'x'.repeat(length)), weight: 1 },
);

const hostileNumber: fc.Arbitrary<JsonText> = fc.oneof(
  fc.constantFrom(...NUMBER_LITERALS).map((text) => new JsonRaw(text)),
  fc.double().map((n) => new JsonRaw(Number.isFinite(n) ? JSON.stringify(n) : n > 0 ? '1e999' : '-1e999')),
  fc.integer().map((n) => new JsonRaw(String(n))),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((n) => new JsonRaw(String(n))),
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...POLLUTION_KEYS), weight: 3 },
  { arbitrary: hostileString, weight: 1 },
);

/** Nesting far past anything a request needs: arrays or objects, 40 to 5,000 levels deep. */
export const deepNesting: fc.Arbitrary<JsonText> = fc
  .tuple(fc.constantFrom(40, 200, 5_000), fc.boolean())
  .map(([depth, arrays]) => new JsonRaw(arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

const pollutingObject: fc.Arbitrary<JsonText> = fc
  .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.constantFrom('polluted', 'toString', 'isAdmin'))
  .map(([key, property]) =>
    key === 'constructor'
      ? new JsonObject([[key, new JsonObject([['prototype', new JsonObject([[property, true]])]])]])
      : new JsonObject([[key, new JsonObject([[property, true]])]]),
  );

/** Any JSON value, with hostile strings, numbers and keys among the ordinary ones. */
export const hostileValue: fc.Arbitrary<JsonText> = fc.letrec<{ value: JsonText }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: hostileString, weight: 3 },
    { arbitrary: hostileNumber, weight: 3 },
    { arbitrary: fc.array(tie('value'), { maxLength: 4 }), weight: 1 },
    {
      arbitrary: fc.array(fc.tuple(fc.oneof(hostileKey, fc.string({ maxLength: 8 })), tie('value')), { maxLength: 4 }).map((entries) => new JsonObject(entries)),
      weight: 1,
    },
    { arbitrary: pollutingObject, weight: 1 },
  ),
})).value;

// ---- mutations of a valid body -----------------------------------------------------------------

type Mutation = { at: number; change: 'replace' | 'addKey' | 'remove' | 'duplicateKey'; key: string; value: JsonText };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  change: fc.constantFrom('replace', 'replace', 'addKey', 'remove', 'duplicateKey'),
  key: hostileKey,
  value: fc.oneof({ arbitrary: hostileValue, weight: 6 }, { arbitrary: deepNesting, weight: 1 }),
});

/** Every object and array in a value, outermost first. */
function containers(value: JsonText, found: Array<JsonObject | JsonText[]> = []): Array<JsonObject | JsonText[]> {
  if (value instanceof JsonObject) {
    found.push(value);
    for (const [, child] of value.entries) containers(child, found);
  } else if (Array.isArray(value)) {
    found.push(value);
    for (const child of value) containers(child, found);
  }
  return found;
}

function clone(value: JsonText): JsonText {
  if (value instanceof JsonObject) return new JsonObject(value.entries.map(([key, child]) => [key, clone(child)]));
  if (Array.isArray(value)) return value.map(clone);
  return value;
}

function apply(body: JsonText, { at, change, key, value }: Mutation): JsonText {
  const all = containers(body);
  if (all.length === 0) return value;
  const target = all[at % all.length];
  const slots = target instanceof JsonObject ? target.entries : target;
  const index = slots.length === 0 ? 0 : at % slots.length;
  if (target instanceof JsonObject) {
    if (change === 'replace' && target.entries[index]) target.entries[index] = [target.entries[index][0], value];
    else if (change === 'remove') target.entries.splice(index, 1);
    else if (change === 'duplicateKey' && target.entries[index]) target.entries.push([target.entries[index][0], value]);
    else target.entries.push([key, value]);
  } else if (change === 'remove') target.splice(index, 1);
  else if (change === 'replace' && index < target.length) target[index] = value;
  else target.push(value);
  return body;
}

/** A valid body with one to three hostile changes anywhere in it. */
export function mutated(valid: () => unknown): fc.Arbitrary<JsonText> {
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => mutations.reduce(apply, clone(fromValue(valid()))));
}

// ---- whole request bodies ----------------------------------------------------------------------

export interface HostileBody {
  text: string;
  contentType?: string;
}

const CONTENT_TYPES = [
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/octet-stream',
  'application/json; charset=utf-16', 'application/jsonx', 'application/problem+json', 'APPLICATION/JSON', 'application/json;;',
];

const RAW_TEXTS = [
  '', ' ', 'null', 'true', '0', '"text"', '[]', '{', '}', '{"a":', '{"a":1,}', "{'a':1}", '{"a":NaN}', '{"a":Infinity}', '{"a":undefined}',
  '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}', '{"a":{"__proto__":{"polluted":true}}}',
  '[{"__proto__":{"polluted":true}}]', '\ufeff{}', '{"a":"\\ud800"}', '{"a":"\\u0000"}', '{"\\u0000":1}', '{"a":1}{"b":2}', '{"a":1} trailing',
];

/**
 * What a hostile client posts: mostly the endpoint's valid body with hostile changes (so the
 * request reaches the deeper checks), also arbitrary JSON, broken JSON and wrong content types.
 */
export function hostileBody(valid: () => unknown): fc.Arbitrary<HostileBody> {
  const json = (value: fc.Arbitrary<JsonText>) => value.map((body) => ({ text: toJsonText(body) }));
  return fc.oneof(
    { arbitrary: json(mutated(valid)), weight: 8 },
    { arbitrary: json(hostileValue), weight: 2 },
    { arbitrary: json(deepNesting), weight: 1 },
    { arbitrary: fc.constantFrom(...RAW_TEXTS).map((text) => ({ text })), weight: 2 },
    {
      arbitrary: fc.tuple(fc.nat(), fc.constant(null)).map(([cut]) => {
        const text = JSON.stringify(valid());
        return { text: text.slice(0, cut % text.length) };
      }),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(fc.constantFrom(...CONTENT_TYPES), fc.oneof(fc.constant(JSON.stringify(valid())), fc.string({ maxLength: 30 }))).map(([contentType, text]) => ({
        text,
        contentType,
      })),
      weight: 2,
    },
  );
}

/** A path segment as a client could write it: percent-encoded bytes that need not be UTF-8, dots, overlong ids. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('%00', '%ED%A0%80', '%FF', '%', '%2', '..', '%2e%2e', '%2F', 'a%20b', '%E2%80%AE', '__proto__', 'constructor', '-1', '0', 'null'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  fc.constantFrom(101, 1025, 5000).map((length) => 'a'.repeat(length)),
);

// ---- urlencoded forms (the consoles) -----------------------------------------------------------

/** Percent escapes that decode to no valid UTF-8, or to NUL and direction overrides. */
const RAW_ESCAPES = ['%00', '%ED%A0%80', '%FF', '%', '%2', '%C0%AF', '%E2%80%AE', '+'];

/** application/x-www-form-urlencoded bytes for any string (a lone surrogate goes as U+FFFD, as a browser sends it). */
export function formEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9*._-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

const formText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: hostileString.map(formEncode), weight: 3 },
  { arbitrary: fc.tuple(hostileString, fc.constantFrom(...RAW_ESCAPES)).map(([text, raw]) => formEncode(text) + raw), weight: 1 },
);

const formKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', '__proto__[polluted]', 'constructor[prototype][polluted]', 'a[b][c]', '_csrf', 'merchantId', 'reason', 'email', 'password', 'confirm', 'token', 'key'),
  formText,
);

type FormMutation = { at: number; change: 'replace' | 'add' | 'remove' | 'duplicate'; key: string; value: string };

/** A valid form (its fields as sent, CSRF token included) with one to three hostile changes. */
export function hostileForm(valid: Record<string, string>): fc.Arbitrary<HostileBody> {
  const change: fc.Arbitrary<FormMutation> = fc.record({ at: fc.nat(), change: fc.constantFrom('replace', 'replace', 'add', 'remove', 'duplicate'), key: formKey, value: formText });
  const mutated = fc.array(change, { minLength: 1, maxLength: 3 }).map((changes) => {
    const fields = Object.entries(valid).map(([key, value]) => [formEncode(key), formEncode(value)]);
    for (const { at, change: kind, key, value } of changes) {
      const index = fields.length === 0 ? 0 : at % fields.length;
      if (kind === 'replace' && fields[index]) fields[index] = [fields[index][0], value];
      else if (kind === 'remove') fields.splice(index, 1);
      else if (kind === 'duplicate' && fields[index]) fields.push([fields[index][0], value]);
      else fields.push([key, value]);
    }
    return { text: fields.map(([key, value]) => `${key}=${value}`).join('&'), contentType: 'application/x-www-form-urlencoded' };
  });
  return fc.oneof(
    { arbitrary: mutated, weight: 6 },
    { arbitrary: hostileBody(() => valid), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((text) => ({ text: formEncode(text), contentType: 'application/x-www-form-urlencoded' })), weight: 1 },
  );
}
