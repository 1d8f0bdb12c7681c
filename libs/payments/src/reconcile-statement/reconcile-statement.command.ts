import { Command } from '@nestjs/cqrs';
import type { ReconciliationRunner } from '@app/domain';
import type { ReconciliationReport, StatementProvider } from '@app/audit';
import type { EventMetadata } from '@app/event-store';

/** A reconciliation as it was run and recorded. */
export interface ReconciliationRun {
  runId: string;
  provider: StatementProvider;
  statementDay: string;
  fileSha256: string;
  /** Its discrepancies, all of them (the event keeps the first hundred), are discrepanciesOf(report); whether it is clean, isClean(report.counts). */
  report: ReconciliationReport;
  reconciledAt: string;
}

/** Match a provider's statement file against our provider movements of its day, and record the run. */
export class ReconcileStatementCommand extends Command<ReconciliationRun> {
  constructor(
    readonly provider: StatementProvider,
    /** The file's exact bytes: its SHA-256 is recorded. */
    readonly file: Buffer,
    readonly ranBy: ReconciliationRunner,
    readonly metadata: EventMetadata,
    /** The day it covers; unset, the day its lines fall on. */
    readonly day?: string,
    /** Our movements read so far, of how many. */
    readonly onProgress?: (done: number, total: number) => void,
  ) {
    super();
  }
}
