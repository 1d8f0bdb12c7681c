import fc from 'fast-check';
import { jsonErrorLocation } from './json-error-location';

describe('jsonErrorLocation', () => {
  it.each([
    ['{"amount": ', { offset: 11, line: 1, column: 12, found: 'end of input' }],
    ['{"orderId":\n  "x", oops}', { offset: 19, line: 2, column: 8, found: '"o"' }],
    ['{"a": 1,}', { offset: 8, line: 1, column: 9, found: '"}"' }],
    ["{'a': 1}", { offset: 1, line: 1, column: 2, found: '"\'"' }],
    ['{"a": 01}', { offset: 7, line: 1, column: 8, found: '"1"' }],
    ['', { offset: 0, line: 1, column: 1, found: 'end of input' }],
    ['{"a": 1} x', { offset: 9, line: 1, column: 10, found: '"x"' }],
  ])('%j breaks at %j', (text, location) => {
    expect(jsonErrorLocation(text)).toEqual(location);
  });

  it('finds nothing wrong with any JSON, and a break in any text JSON.parse refuses', () => {
    fc.assert(
      fc.property(fc.json(), (json) => {
        expect(jsonErrorLocation(json)).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(jsonErrorLocation(text) === undefined).toBe(valid);
      }),
    );
  });
});
