import type { DiscrepancyKind, ReconciliationCounts, ReconciliationRunner } from '@app/domain';

/**
 * A report's classes as finance staff read them, in the order they are listed: one table, so the
 * CLI's report and the audit console's name each class alike.
 */
export const COUNT_WORDS: Record<keyof ReconciliationCounts, string> = {
  lines: 'statement lines',
  movements: 'our provider movements',
  matched: 'matched',
  missingOnOurSide: 'missing on our side',
  missingOnTheirSide: 'missing on theirs',
  amountMismatch: 'amount mismatch',
  statusMismatch: 'status mismatch',
};

export const DISCREPANCY_WORDS: Record<DiscrepancyKind, string> = {
  'missing-on-our-side': COUNT_WORDS.missingOnOurSide,
  'missing-on-their-side': COUNT_WORDS.missingOnTheirSide,
  'amount-mismatch': COUNT_WORDS.amountMismatch,
  'status-mismatch': COUNT_WORDS.statusMismatch,
};

/** Who ran a reconciliation, and where: "Hana Girma (CLI)", "aud_… (audit console)". */
export function ranByWords(ranBy: ReconciliationRunner): string {
  return `${ranBy.name} (${ranBy.via === 'cli' ? 'CLI' : 'audit console'})`;
}
