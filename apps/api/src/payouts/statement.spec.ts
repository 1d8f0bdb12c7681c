import fc from 'fast-check';
import { type StatementMovement, statementOf } from './statement';

const BASE = Date.parse('2030-01-01T00:00:00.000Z');
const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

describe('statementOf', () => {
  it('opens with what came before, lists the period, and closes with the two added', () => {
    const movements: StatementMovement[] = [
      { eventId: 'e1', type: 'OrderPaid', source: 'ord_1', description: 'Order paid', recordedAt: at(0), amount: 10_000 },
      { eventId: 'e2', type: 'AllocationReleased', source: 'esc_1', description: 'released', recordedAt: at(60), amount: 5_000 },
      { eventId: 'e3', type: 'PayoutRequested', source: 'm-1', description: 'Payout requested', recordedAt: at(90), amount: -15_000 },
      { eventId: 'e4', type: 'OrderPaid', source: 'ord_2', description: 'Order paid', recordedAt: at(120), amount: 700 },
    ];
    const statement = statementOf(movements, at(30), at(120));
    expect(statement).toMatchObject({ opening: 10_000, closing: 0 });
    expect(statement.movements.map((m) => m.eventId)).toEqual(['e2', 'e3']);
  });

  it('always reconciles: opening plus the movements is the closing, which is everything before the end', () => {
    const aMovement = fc.record({ minute: fc.integer({ min: 0, max: 10_000 }), amount: fc.integer({ min: -5_000_000, max: 5_000_000 }) });
    fc.assert(
      fc.property(fc.array(aMovement, { maxLength: 60 }), fc.integer({ min: -10, max: 10_010 }), fc.integer({ min: 0, max: 10_000 }), (raw, fromMinute, length) => {
        const movements = raw.map((m, i) => ({ eventId: `e${i}`, type: 'T', source: 's', description: '', recordedAt: at(m.minute), amount: m.amount }));
        const statement = statementOf(movements, at(fromMinute), at(fromMinute + length));
        expect(statement.opening + statement.movements.reduce((t, m) => t + m.amount, 0)).toBe(statement.closing);
        expect(statement.closing).toBe(raw.filter((m) => m.minute < fromMinute + length).reduce((t, m) => t + m.amount, 0));
        // A period and the next one meet: this closing is that opening.
        expect(statementOf(movements, at(fromMinute + length), at(fromMinute + 2 * length + 1)).opening).toBe(statement.closing);
      }),
      { numRuns: 500 },
    );
  });
});
