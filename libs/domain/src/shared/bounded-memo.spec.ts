import { boundedMemo } from './bounded-memo';

describe('boundedMemo', () => {
  it('computes a key once while it is kept, and forgets the oldest key past the limit', () => {
    const computed: string[] = [];
    const upper = boundedMemo(
      2,
      (text: string) => text,
      (text: string) => {
        computed.push(text);
        return text.toUpperCase();
      },
    );
    expect([upper('a'), upper('b'), upper('a')]).toEqual(['A', 'B', 'A']);
    expect(computed).toEqual(['a', 'b']);
    upper('c'); // the limit is 2: 'a', the oldest, is forgotten
    expect([upper('b'), upper('a')]).toEqual(['B', 'A']);
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
  });
});
