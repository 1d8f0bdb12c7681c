import type { Decider } from '../shared/decider';
import { InvalidInput } from '../shared/domain-error';
import { discrepancyCount, type ReconciliationCommand, type ReconciliationEvent } from './reconciliation.events';

/** An event stays small whatever the statement: the full list is the report, reproducible from the file. */
export const MAX_RECORDED_DISCREPANCIES = 100;

const SHA256 = /^[0-9a-f]{64}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface ReconciliationState {
  recorded: boolean;
}

/**
 * A reconciliation run, recorded once (stream `reconciliation-{runId}`): that it happened, who ran
 * it, over which file, and what it found. The counts must account for every discrepancy listed.
 */
export const reconciliationDecider: Decider<ReconciliationCommand, ReconciliationEvent, ReconciliationState> = {
  initialState: () => ({ recorded: false }),
  evolve: () => ({ recorded: true }),
  decide: ({ data }, state) => {
    if (state.recorded) return [];
    const { at, ...run } = data;
    if (!SHA256.test(run.fileSha256)) throw new InvalidInput('fileSha256 must be 64 lowercase hex digits');
    if (!DAY.test(run.statementDay)) throw new InvalidInput('statementDay must be a date such as 2026-11-25');
    if (run.ranBy.name.trim() === '') throw new InvalidInput('A reconciliation names who ran it');
    const found = discrepancyCount(run.counts);
    if (found !== run.discrepancies.length) throw new InvalidInput(`The counts name ${found} discrepancies and the run lists ${run.discrepancies.length}`);
    const kept = run.discrepancies.slice(0, MAX_RECORDED_DISCREPANCIES);
    return [{ type: 'ProviderStatementReconciled', data: { ...run, discrepancies: kept, discrepanciesOmitted: found - kept.length, reconciledAt: at } }];
  },
};
