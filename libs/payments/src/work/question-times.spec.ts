import fc from 'fast-check';
import { nextQuestion } from './question-times';

const HOUR = 3_600_000;

describe('nextQuestion', () => {
  it('asks after the first wait, then after waits that double', () => {
    const asked = [0, 1_000, 3_000, 7_000].map((notBefore) => nextQuestion(0, 1_000, notBefore));
    expect(asked).toEqual([
      { index: 0, at: 1_000 },
      { index: 1, at: 2_000 },
      { index: 2, at: 4_000 },
      { index: 3, at: 8_000 },
    ]);
  });

  it('never waits more than an hour between questions, and never asks before the first wait', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 * HOUR }), fc.integer({ min: 0, max: 30 * 24 * HOUR }), (after, notBefore) => {
        const { index, at } = nextQuestion(0, after, notBefore);
        expect(at).toBeGreaterThan(notBefore);
        expect(at).toBeGreaterThanOrEqual(after);
        const previous = index === 0 ? undefined : nextQuestion(0, after, at - 1);
        expect(previous?.at ?? at).toBe(at);
        if (index > 0) expect(at - notBefore).toBeLessThanOrEqual(Math.max(after, HOUR));
      }),
    );
  });

  it('names the same question the same way from any pass', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: HOUR }), fc.integer({ min: 0, max: 24 * HOUR }), fc.integer({ min: 0, max: 1_000 }), (after, notBefore, jitter) => {
        const first = nextQuestion(0, after, notBefore);
        const later = nextQuestion(0, after, Math.min(first.at - 1, notBefore + jitter));
        expect(later).toEqual(first);
      }),
    );
  });
});
