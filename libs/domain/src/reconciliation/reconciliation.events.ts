import type { Santim } from '../shared/money';

export type ReconciledMovementKind = 'payment' | 'refund' | 'transfer';

/** How many lines and movements fell in each class (libs/audit/src/reconciliation/match.ts). */
export interface ReconciliationCounts {
  lines: number;
  movements: number;
  matched: number;
  missingOnOurSide: number;
  missingOnTheirSide: number;
  amountMismatch: number;
  statusMismatch: number;
}

/** How many discrepancies the counts name: every class but matched. */
export function discrepancyCount(counts: ReconciliationCounts): number {
  return counts.missingOnOurSide + counts.missingOnTheirSide + counts.amountMismatch + counts.statusMismatch;
}

export type DiscrepancyKind = 'missing-on-our-side' | 'missing-on-their-side' | 'amount-mismatch' | 'status-mismatch';

/** One thing that did not match: enough to find the statement's line and our event again. */
export interface Discrepancy {
  kind: DiscrepancyKind;
  movementKind: ReconciledMovementKind;
  providerReference: string;
  reference?: string;
  /** The statement's line and what it says. */
  line?: number;
  statementAmount?: Santim;
  statementStatus?: string;
  /** Our movement: its amount and the event that booked it. */
  ourAmount?: Santim;
  eventId?: string;
  streamId?: string;
}

/** Who reconciled: a person at the CLI (by the name given, or the OS user), or one signed in to the audit console. */
export interface ReconciliationRunner {
  via: 'cli' | 'audit-console';
  name: string;
}

export interface ProviderStatementReconciled {
  type: 'ProviderStatementReconciled';
  data: {
    runId: string;
    provider: string;
    /** The Africa/Addis_Ababa calendar day the statement covers. */
    statementDay: string;
    /** SHA-256 of the file's exact bytes, lowercase hex: the file an auditor holds can be shown to be this one. */
    fileSha256: string;
    ranBy: ReconciliationRunner;
    counts: ReconciliationCounts;
    /** What the statement says the provider charged on the lines that moved money. */
    fees: Santim;
    /** The first discrepancies found, at most MAX_RECORDED_DISCREPANCIES. */
    discrepancies: Discrepancy[];
    /** How many more there were. */
    discrepanciesOmitted: number;
    reconciledAt: string;
  };
}

export type ReconciliationEvent = ProviderStatementReconciled;

export type ReconciliationCommand = {
  type: 'RecordReconciliation';
  data: Omit<ProviderStatementReconciled['data'], 'discrepanciesOmitted' | 'reconciledAt'> & { at: string };
};
