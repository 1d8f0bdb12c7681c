import { COUNT_WORDS, DISCREPANCY_WORDS, discrepanciesOf } from '@app/audit';
import { formatEtbFixed, InvalidInput, type ReconciliationCounts, type Santim } from '@app/domain';
import type { ReconciliationRun } from '@app/payments';
import { table } from './output';

/** An option or a file the CLI cannot take as a statement: exit 2, nothing recorded. */
export class StatementInputError extends Error {}

const UNREADABLE_FILE = new Set(['ENOENT', 'EISDIR', 'EACCES']);

/** Runs a statement command; a bad file or option is said plainly and exits 2, so scripts tell it from a mismatch (1). */
export async function statementInput(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const refused = error instanceof StatementInputError || error instanceof InvalidInput || (code !== undefined && UNREADABLE_FILE.has(code));
    if (!refused) throw error;
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\nnothing was recorded\n`);
    process.exitCode = 2;
  }
}

const birr = (amount: Santim | undefined) => (amount === undefined ? '' : formatEtbFixed(amount));

/** The report a finance person reads: what was compared, how many fell in each class, and each discrepancy. */
export function reconciliationReport(run: ReconciliationRun, by: string): string {
  const { counts } = run.report;
  const discrepancies = discrepanciesOf(run.report);
  const found = discrepancies.length;
  const rows = discrepancies.map((d) => ({
    discrepancy: DISCREPANCY_WORDS[d.kind],
    type: d.movementKind,
    'provider reference': d.providerReference,
    'our reference': d.reference ?? '',
    line: d.line ?? '',
    'statement ETB': birr(d.statementAmount),
    'statement status': d.statementStatus ?? '',
    'ours ETB': birr(d.ourAmount),
    'our event': d.streamId ?? '',
  }));
  return [
    `${run.provider} statement for ${run.statementDay} (Africa/Addis_Ababa), file SHA-256 ${run.fileSha256}`,
    `reconciled by ${by}, recorded as run ${run.runId}`,
    '',
    table((Object.keys(COUNT_WORDS) as (keyof ReconciliationCounts)[]).map((name) => ({ class: COUNT_WORDS[name], count: counts[name] }))),
    '',
    `provider fees on the statement: ${birr(run.report.fees)} ETB (amounts are compared gross; fees are not part of the match)`,
    ...(found === 0 ? ['', 'RECONCILED: every line and every movement matched'] : ['', table(rows), '', `NOT RECONCILED: ${found} discrepanc${found === 1 ? 'y' : 'ies'}`]),
  ].join('\n');
}
