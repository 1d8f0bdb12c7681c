import type { Projection } from './projection';
import { selectForRebuild } from './rebuild';
import { CORE_PROJECTIONS } from './views';

const projection = (name: string, dependsOn?: string[]): Projection => ({
  name,
  tables: [name],
  ...(dependsOn ? { dependsOn } : {}),
  applyBatch: async () => undefined,
});

// Live order: a projection comes after those it reads.
const ALL = [
  projection('a'),
  projection('b'),
  projection('c', ['a']),
  projection('d', ['c']),
  projection('e'),
  projection('f', ['b', 'e']),
];
const names = (list: readonly Projection[]) => list.map((p) => p.name);

describe('selectForRebuild', () => {
  it('selects every projection, in live order, when none is named', () => {
    expect(names(selectForRebuild(ALL, []))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(selectForRebuild(ALL, [])).not.toBe(ALL);
  });

  it('selects one projection without dependencies alone', () => {
    expect(names(selectForRebuild(ALL, ['e']))).toEqual(['e']);
  });

  it('pulls in what a projection reads, and what those read (transitively)', () => {
    expect(names(selectForRebuild(ALL, ['c']))).toEqual(['a', 'c']);
    expect(names(selectForRebuild(ALL, ['d']))).toEqual(['a', 'c', 'd']);
    expect(names(selectForRebuild(ALL, ['f']))).toEqual(['b', 'e', 'f']);
  });

  it('keeps the live order whatever order the names are given in, without duplicates', () => {
    expect(names(selectForRebuild(ALL, ['f', 'd', 'a']))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(names(selectForRebuild(ALL, ['d', 'c', 'c']))).toEqual(['a', 'c', 'd']);
  });

  it('throws on an unknown name, naming it and the known ones, before selecting anything', () => {
    expect(() => selectForRebuild(ALL, ['c', 'nope'])).toThrow(/unknown projection nope/);
    expect(() => selectForRebuild(ALL, ['nope'])).toThrow(/known: a, b, c, d, e, f/);
  });

  it('rebuilds the ledger with the order and escrow views it reads, those first', () => {
    expect(names(selectForRebuild(CORE_PROJECTIONS, ['ledger']))).toEqual(['orders_view', 'escrows_view', 'ledger']);
    expect(names(selectForRebuild(CORE_PROJECTIONS, ['merchants_view']))).toEqual(['merchants_view']);
  });
});
