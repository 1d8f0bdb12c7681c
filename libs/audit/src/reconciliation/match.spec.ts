import fc from 'fast-check';
import type { Santim } from '@app/domain';
import { discrepanciesOf, isClean, reconcile } from './match';
import type { MovementKind, ProviderMovement, StatementLine } from './statement';

const KINDS: MovementKind[] = ['payment', 'refund', 'transfer'];
const AT = '2026-11-25T09:00:00.000Z';

const movementArb = (reference: fc.Arbitrary<string>) =>
  fc.record({
    kind: fc.constantFrom(...KINDS),
    providerReference: reference,
    reference: fc.option(reference, { nil: undefined }),
    amount: fc.integer({ min: 1, max: 100_000_000_000 }),
  });

const asMovement = (m: { kind: MovementKind; providerReference: string; reference?: string; amount: number }, i: number): ProviderMovement => ({
  eventId: `ev-${i}`,
  streamId: `order-${i}`,
  eventType: 'OrderPaid',
  kind: m.kind,
  providerReference: m.providerReference,
  ...(m.reference === undefined ? {} : { reference: m.reference }),
  amount: m.amount as Santim,
  at: AT,
});

/** What an honest provider's statement says of our movements: each one, settled, for the same gross amount. */
const lineFor = (m: ProviderMovement, line: number, fee = 0): StatementLine => ({
  line,
  kind: m.kind,
  providerReference: m.providerReference,
  ...(m.reference === undefined ? {} : { reference: m.reference }),
  amount: m.amount,
  fee: fee as Santim,
  status: 'settled',
  providerStatus: 'success',
  at: m.at,
});

/** Movements whose provider references are all different, as a provider's are. */
const distinctMovements = fc
  .uniqueArray(movementArb(fc.string({ minLength: 1, maxLength: 12 })), { selector: (m) => m.providerReference, minLength: 1, maxLength: 30 })
  .map((list) => list.map(asMovement));

describe('reconcile', () => {
  it('puts every line and every movement in exactly one class, whatever the two sides say', () => {
    const tinyReference = fc.constantFrom('A', 'B', 'C', 'D');
    const lineArb = fc.record({
      kind: fc.constantFrom(...KINDS),
      providerReference: tinyReference,
      reference: fc.option(tinyReference, { nil: undefined }),
      amount: fc.integer({ min: 1, max: 5 }),
      fee: fc.integer({ min: 0, max: 3 }),
      status: fc.constantFrom('settled' as const, 'failed' as const, 'pending' as const),
    });
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 20 }), fc.array(movementArb(tinyReference), { maxLength: 20 }), fc.array(movementArb(tinyReference), { maxLength: 5 }), (rawLines, rawMovements, rawNeighbours) => {
        const lines: StatementLine[] = rawLines.map((l, i) => ({ ...l, line: i + 2, amount: l.amount as Santim, fee: l.fee as Santim, providerStatus: l.status, at: AT }));
        const movements = rawMovements.map(asMovement);
        const neighbours = rawNeighbours.map((m, i) => asMovement(m, 1000 + i));
        const report = reconcile({ lines, movements, neighbours });

        const linesSeen = [...report.matched.map((p) => p.line), ...report.missingOnOurSide, ...report.amountMismatches.map((p) => p.line), ...report.statusMismatches.map((p) => p.line)];
        expect(linesSeen).toHaveLength(lines.length);
        expect(new Set(linesSeen)).toEqual(new Set(lines));

        const paired = [...report.matched.flatMap((p) => (p.movement ? [p.movement] : [])), ...report.amountMismatches.map((p) => p.movement), ...report.statusMismatches.map((p) => p.movement)];
        const movementsSeen = [...paired, ...report.missingOnTheirSide];
        expect(new Set(movementsSeen).size).toBe(movementsSeen.length);
        for (const movement of movements) expect(movementsSeen).toContain(movement);
        // A neighbour is only ever matched, never reported missing.
        for (const movement of report.missingOnTheirSide) expect(movements).toContain(movement);
        expect(report.counts.movements).toBe(movementsSeen.length);

        const { counts } = report;
        expect(counts.matched + counts.missingOnOurSide + counts.amountMismatch + counts.statusMismatch).toBe(counts.lines);
        expect(discrepanciesOf(report)).toHaveLength(counts.missingOnOurSide + counts.missingOnTheirSide + counts.amountMismatch + counts.statusMismatch);
      }),
    );
  });

  it('finds everything matched in a statement made from our own movements, whatever fees it reports', () => {
    fc.assert(
      fc.property(distinctMovements, fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 30, maxLength: 30 }), fc.boolean(), (movements, fees, shuffled) => {
        const lines = movements.map((m, i) => lineFor(m, i + 2, fees[i]));
        const report = reconcile({ lines: shuffled ? [...lines].reverse() : lines, movements });
        expect(isClean(report.counts)).toBe(true);
        expect(report.counts.matched).toBe(movements.length);
        expect(report.fees).toBe(fees.slice(0, movements.length).reduce((a, b) => a + b, 0));
      }),
    );
  });

  type Injection = 'dropLine' | 'extraLine' | 'amount' | 'failed' | 'reversed' | 'pending' | 'bookedTwice';
  const expectedKind: Record<Injection, string> = {
    dropLine: 'missing-on-their-side',
    bookedTwice: 'missing-on-their-side',
    extraLine: 'missing-on-our-side',
    amount: 'amount-mismatch',
    failed: 'status-mismatch',
    reversed: 'status-mismatch',
    pending: 'status-mismatch',
  };

  it('finds each injected discrepancy as its kind, and nothing else', () => {
    const injection = fc.constantFrom<Injection>('dropLine', 'extraLine', 'amount', 'failed', 'reversed', 'pending', 'bookedTwice');
    fc.assert(
      fc.property(distinctMovements, injection, fc.nat(), fc.integer({ min: 1, max: 1_000 }), (movements, kind, pick, delta) => {
        const target = movements[pick % movements.length];
        let lines = movements.map((m, i) => lineFor(m, i + 2));
        let ours = movements;
        const index = movements.indexOf(target);
        if (kind === 'dropLine') lines = lines.filter((_, i) => i !== index);
        if (kind === 'extraLine') lines = [...lines, { ...lineFor(target, 99), providerReference: `${target.providerReference}-theirs-only`, reference: undefined }];
        if (kind === 'amount') lines[index] = { ...lines[index], amount: (target.amount + delta) as Santim };
        if (kind === 'failed' || kind === 'reversed') lines[index] = { ...lines[index], status: 'failed', providerStatus: kind };
        if (kind === 'pending') lines[index] = { ...lines[index], status: 'pending', providerStatus: 'pending' };
        if (kind === 'bookedTwice') ours = [...movements, { ...target, eventId: 'ev-again' }];
        const found = discrepanciesOf(reconcile({ lines, movements: ours }));
        expect(found).toHaveLength(1);
        expect(found[0].kind).toBe(expectedKind[kind]);
        expect(found[0].providerReference).toBe(kind === 'extraLine' ? `${target.providerReference}-theirs-only` : target.providerReference);
      }),
    );
  });

  it('agrees with a line that moved nothing when we booked nothing', () => {
    const line: StatementLine = { line: 2, kind: 'payment', providerReference: 'P1', amount: 100 as Santim, fee: 0 as Santim, status: 'failed', providerStatus: 'failed', at: AT };
    const report = reconcile({ lines: [line], movements: [] });
    expect(report.matched).toEqual([{ line }]);
    expect(isClean(report.counts)).toBe(true);
  });

  it('does not let an attempt the provider failed, under our same reference, take the movement of the attempt that succeeded', () => {
    const completed = asMovement({ kind: 'refund', providerReference: 'CHREF-2', reference: 'rf_1', amount: 4_000 }, 1);
    const failedFirst: StatementLine = { ...lineFor(completed, 2), providerReference: 'CHREF-1', status: 'failed', providerStatus: 'failed' };
    const report = reconcile({ lines: [failedFirst, lineFor(completed, 3)], movements: [completed] });
    expect(report.matched).toEqual([{ line: failedFirst }, { line: lineFor(completed, 3), movement: completed }]);
    expect(isClean(report.counts)).toBe(true);
  });

  it('matches by our own reference when the provider reference differs, and a neighbour only when a line names it', () => {
    const movement = asMovement({ kind: 'transfer', providerReference: 'TR-1', reference: 'pay_1', amount: 500 }, 1);
    const neighbour = asMovement({ kind: 'refund', providerReference: 'RF-9', amount: 70 }, 2);
    const line: StatementLine = { ...lineFor(movement, 2), providerReference: 'TR-OTHER' };
    const report = reconcile({ lines: [line], movements: [movement], neighbours: [neighbour] });
    expect(report.matched).toEqual([{ line, movement }]);
    expect(report.counts.movements).toBe(1);
    expect(reconcile({ lines: [lineFor(neighbour, 2)], movements: [], neighbours: [neighbour] }).counts).toMatchObject({ matched: 1, movements: 1 });
  });
});
