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
