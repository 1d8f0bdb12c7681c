import type { Santim } from '../shared/money';
import { InvalidInput } from '../shared/domain-error';
import { given } from '../testing/given';
import { MAX_RECORDED_DISCREPANCIES, reconciliationDecider } from './reconciliation.decider';
import type { Discrepancy, ReconciliationCommand, ReconciliationEvent } from './reconciliation.events';

const AT = '2026-11-25T12:00:00.000Z';
const missing = (i: number): Discrepancy => ({ kind: 'missing-on-our-side', movementKind: 'payment', providerReference: `SBX-${i}`, line: i + 2, statementAmount: 100 as Santim, statementStatus: 'success' });
const run = (discrepancies: Discrepancy[], overrides: Partial<ReconciliationCommand['data']> = {}): ReconciliationCommand => ({
  type: 'RecordReconciliation',
  data: {
    runId: 'rec_1',
    provider: 'sandbox',
    statementDay: '2026-11-25',
    fileSha256: 'a'.repeat(64),
    ranBy: { via: 'cli', name: 'abebe' },
    counts: { lines: discrepancies.length + 3, movements: 3, matched: 3, missingOnOurSide: discrepancies.length, missingOnTheirSide: 0, amountMismatch: 0, statusMismatch: 0 },
    fees: 0 as Santim,
    discrepancies,
    at: AT,
    ...overrides,
  },
});
const recorded = (command: ReconciliationCommand, kept: Discrepancy[], omitted: number): ReconciliationEvent => {
  const { at, ...data } = command.data;
  return { type: 'ProviderStatementReconciled', data: { ...data, discrepancies: kept, discrepanciesOmitted: omitted, reconciledAt: at } };
};

describe('Reconciliation run', () => {
  it('records who reconciled which file and what it found', () => {
    const command = run([missing(1)]);
    given(reconciliationDecider, []).when(command).then([recorded(command, [missing(1)], 0)]);
  });

  it('keeps the first discrepancies and counts the rest, so the event stays small', () => {
    const all = Array.from({ length: MAX_RECORDED_DISCREPANCIES + 7 }, (_, i) => missing(i));
    const command = run(all);
    given(reconciliationDecider, []).when(command).then([recorded(command, all.slice(0, MAX_RECORDED_DISCREPANCIES), 7)]);
  });

  it('is recorded once', () => {
    const command = run([]);
    given(reconciliationDecider, [recorded(command, [], 0)]).when(command).thenNothing();
  });

  it('refuses counts that do not account for the discrepancies listed, a malformed digest or day, and no name', () => {
    given(reconciliationDecider, []).when(run([missing(1)], { counts: { lines: 1, movements: 0, matched: 1, missingOnOurSide: 0, missingOnTheirSide: 0, amountMismatch: 0, statusMismatch: 0 } })).thenThrows(InvalidInput);
    given(reconciliationDecider, []).when(run([], { fileSha256: 'A'.repeat(64) })).thenThrows(InvalidInput);
    given(reconciliationDecider, []).when(run([], { statementDay: '25/11/2026' })).thenThrows(InvalidInput);
    given(reconciliationDecider, []).when(run([], { ranBy: { via: 'cli', name: ' ' } })).thenThrows(InvalidInput);
  });
});
