import { fold, foldKept } from './decider';

/** A running total that counts its folds: what foldKept must not repeat while a kept history stands. */
function counting() {
  let evolved = 0;
  const decider = {
    initialState: () => ({ total: 0 }),
    evolve: (state: { total: number }, event: number) => {
      evolved++;
      return { total: state.total + event };
    },
  };
  return { decider, evolved: () => evolved };
}

describe('foldKept', () => {
  it('folds a kept history once, and a longer one (a new array) again', () => {
    const { decider, evolved } = counting();
    const history = [1, 2, 3];
    expect(foldKept(decider, history)).toEqual(fold(decider, history));
    const before = evolved();
    expect(foldKept(decider, history)).toEqual({ total: 6 });
    expect(evolved()).toBe(before);
    expect(foldKept(decider, [...history, 4])).toEqual({ total: 10 });
    expect(evolved()).toBe(before + 4);
  });

  it('keeps each decider its own state of one history', () => {
    const history = [2, 5];
    const doubled = { initialState: () => 0, evolve: (state: number, event: number) => state + 2 * event };
    expect(foldKept(counting().decider, history)).toEqual({ total: 7 });
    expect(foldKept(doubled, history)).toBe(14);
  });
});
