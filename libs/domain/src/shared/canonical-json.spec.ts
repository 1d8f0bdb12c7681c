import fc from 'fast-check';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('gives the same text whatever order the keys were written in', () => {
    expect(canonicalJson({ b: 1, a: 2, c: 3 })).toBe('{"a":2,"b":1,"c":3}');
    expect(canonicalJson({ c: 3, a: 2, b: 1 })).toBe(canonicalJson({ a: 2, b: 1, c: 3 }));
  });

  it('sorts keys at every level of nesting, including objects inside arrays', () => {
    const one = { z: { y: 1, x: { b: true, a: null } }, a: [{ d: 1, c: 2 }] };
    const two = { a: [{ c: 2, d: 1 }], z: { x: { a: null, b: true }, y: 1 } };
    expect(canonicalJson(one)).toBe('{"a":[{"c":2,"d":1}],"z":{"x":{"a":null,"b":true},"y":1}}');
    expect(canonicalJson(two)).toBe(canonicalJson(one));
  });

  it('keeps the order of array elements: a reordered array is a different value', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson({ list: ['b', 'a'] })).not.toBe(canonicalJson({ list: ['a', 'b'] }));
    expect(canonicalJson([{ b: 1, a: 2 }, { d: 3, c: 4 }])).toBe('[{"a":2,"b":1},{"c":4,"d":3}]');
  });

  it('is plain JSON of the same value (parses back equal) and handles scalars, null and undefined', () => {
    expect(canonicalJson('text')).toBe('"text"');
    expect(canonicalJson(42)).toBe('42');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson({ when: new Date('2024-01-02T03:04:05.000Z') })).toBe('{"when":"2024-01-02T03:04:05.000Z"}');
  });

  it('depends only on the value: any key order of any JSON value gives one text (property)', () => {
    const shuffleKeys = (value: unknown, seed: number): unknown => {
      if (Array.isArray(value)) return value.map((v, i) => shuffleKeys(v, seed + i));
      if (value !== null && typeof value === 'object') {
        const entries = Object.entries(value as Record<string, unknown>);
        const rotated = entries.length ? [...entries.slice(seed % entries.length), ...entries.slice(0, seed % entries.length)].reverse() : entries;
        return Object.fromEntries(rotated.map(([k, v]) => [k, shuffleKeys(v, seed + 1)]));
      }
      return value;
    };
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(50), (value, seed) => {
        const text = canonicalJson(value);
        expect(canonicalJson(shuffleKeys(value, seed))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

/** How canonical text was first computed; every hash stored so far was made with it. */
function reference(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v !== null && typeof v === 'object') {
      const source = v as Record<string, unknown>;
      return Object.fromEntries(Object.keys(source).sort().map((key) => [key, sortKeys(source[key])]));
    }
    return v;
  };
  return JSON.stringify(sortKeys(JSON.parse(JSON.stringify(value ?? null))));
}

describe('canonicalJson against the text stored hashes were made with', () => {
  it('writes every JSON value exactly as before (property)', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => expect(canonicalJson(value)).toBe(reference(value))), { numRuns: 2000 });
  });

  it('writes values JSON only approximates as before: dates, undefined, functions, holes, boxed values, non-finite numbers', () => {
    const odd = {
      when: new Date('2024-01-02T03:04:05.000Z'),
      gone: undefined,
      call: () => 1,
      list: [undefined, () => 1, , 1, new Date(0)],
      boxed: [new Number(2), new String('s'), new Boolean(false)],
      numbers: [Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, 0.1],
      nested: { toJSON: () => ({ b: 1, a: [2] }) },
      text: 'quote " backslash \\ line\n emoji 😀 lone \ud800',
      '': 'empty key',
      10: 'index keys come first, in numeric order',
      9: 'nine',
      '4294967295': 'past the largest index: sorted as text',
      '01': 'not an index',
      __proto__: null,
    };
    expect(canonicalJson(odd)).toBe(reference(odd));
    expect(() => canonicalJson({ big: 1n })).toThrow(TypeError);
  });

  it('writes any text and any names as before: every UTF-16 code unit, lone surrogates and control characters included (property)', () => {
    const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const text = fc.string({ unit: anyUnit, maxLength: 12 });
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text, { maxLength: 3 })), { maxKeys: 40 }), (value) => expect(canonicalJson(value)).toBe(reference(value))),
      { numRuns: 1000 },
    );
  });
});
