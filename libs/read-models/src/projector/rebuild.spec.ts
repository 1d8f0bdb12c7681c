import type { Projection } from './projection';
import { selectForRebuild } from './rebuild';
import { CORE_PROJECTIONS } from './projections';

const projection = (name: string): Projection => ({ name, version: 1, tables: [name], applyBatch: async () => undefined });

const ALL = ['a', 'b', 'c', 'd'].map((name) => projection(name));
const names = (list: readonly Projection[]) => list.map((p) => p.name);

describe('selectForRebuild', () => {
  it('selects every projection, in live order, when none is named', () => {
    expect(names(selectForRebuild(ALL, []))).toEqual(['a', 'b', 'c', 'd']);
    expect(selectForRebuild(ALL, [])).not.toBe(ALL);
  });

  it('selects the named ones alone, in live order, whatever order the names come in, without duplicates', () => {
    expect(names(selectForRebuild(ALL, ['c']))).toEqual(['c']);
    expect(names(selectForRebuild(ALL, ['d', 'a', 'a']))).toEqual(['a', 'd']);
  });

  it('throws on an unknown name, naming it and the known ones, before selecting anything', () => {
    expect(() => selectForRebuild(ALL, ['c', 'nope'])).toThrow(/unknown projection nope/);
    expect(() => selectForRebuild(ALL, ['nope'])).toThrow(/known: a, b, c, d/);
  });

  it('rebuilds the ledger alone: it folds the histories it needs and reads no view', () => {
    expect(names(selectForRebuild(CORE_PROJECTIONS, ['ledger']))).toEqual(['ledger']);
  });
});
