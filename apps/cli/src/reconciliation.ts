import { type Discrepancy, formatEtbFixed, InvalidInput, type Santim } from '@app/domain';
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

const KIND_WORDS: Record<Discrepancy['kind'], string> = {
  'missing-on-our-side': 'missing on our side',
  'missing-on-their-side': 'missing on theirs',
  'amount-mismatch': 'amount mismatch',
  'status-mismatch': 'status mismatch',
};

/** The report a finance person reads: what was compared, how many fell in each class, and each discrepancy. */
export function reconciliationReport(run: ReconciliationRun, by: string): string {
  const { counts } = run.report;
  const found = run.discrepancies.length;
  const rows = run.discrepancies.map((d) => ({
    discrepancy: KIND_WORDS[d.kind],
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
    table([
      { class: 'statement lines', count: counts.lines },
      { class: 'our provider movements', count: counts.movements },
      { class: 'matched', count: counts.matched },
      { class: 'missing on our side', count: counts.missingOnOurSide },
      { class: 'missing on theirs', count: counts.missingOnTheirSide },
      { class: 'amount mismatch', count: counts.amountMismatch },
      { class: 'status mismatch', count: counts.statusMismatch },
    ]),
    '',
    `provider fees on the statement: ${birr(run.report.fees)} ETB (amounts are compared gross; fees are not part of the match)`,
    ...(found === 0 ? ['', 'RECONCILED: every line and every movement matched'] : ['', table(rows), '', `NOT RECONCILED: ${found} discrepanc${found === 1 ? 'y' : 'ies'}`]),
  ].join('\n');
}
