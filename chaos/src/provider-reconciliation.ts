import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addisDay, addisDayOf, type Discrepancy, type ReconciliationCounts } from '@app/domain';
import type { CheckResult } from './checks';
import { ROOT } from './processes';
import type { ChaosProvider } from './provider';

export interface CliRun {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as finance staff would, on the run's schema. */
export type Cli = (args: string[]) => Promise<CliRun>;

export function cliFor(env: Record<string, string>): Cli {
  return (args) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js'), ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('exit', (code, signal) => resolve({ code: code ?? signal ?? -1, stdout, stderr }));
    });
}

/** Every Africa/Addis_Ababa day from the one `from` falls on to the one `to` falls on. */
export function addisDaysBetween(from: Date, to: Date): string[] {
  const days: string[] = [];
  for (let day = addisDayOf(from); ; day = addisDayOf(addisDay(day).to)) {
    days.push(day);
    if (day === addisDayOf(to)) return days;
  }
}

/** What `cli --json reconcile` prints (apps/cli/src/main.ts), as far as this check reads it. */
interface ReconcileSummary {
  clean: boolean;
  counts: ReconciliationCounts;
  discrepancies: Discrepancy[];
}

/**
 * (k) The provider's statement of each day the run touched, reconciled with `cli reconcile` as finance
 * staff would run it, matches our provider movements line for line: every payment, refund and payout
 * the provider made is booked, and nothing booked is missing from the provider's books. Run once the
 * evidence is read, since the reconciliation records a run of its own in the log.
 */
export async function checkProviderReconciliation(provider: ChaosProvider, cli: Cli, days: string[], runDir: string): Promise<CheckResult> {
  const problems: string[] = [];
  const figures: string[] = [];
  for (const day of days) {
    const file = join(runDir, `statement-${provider.name}-${day}.csv`);
    writeFileSync(file, await provider.statement(day, cli));
    const run = await cli(['--json', 'reconcile', '--provider', provider.name, '--file', file, '--date', day, '--by', 'chaos run']);
    let summary: ReconcileSummary;
    try {
      summary = JSON.parse(run.stdout) as ReconcileSummary;
    } catch {
      problems.push(`${day}: cli reconcile exited ${run.code} without a report: ${(run.stderr || run.stdout).trim().slice(0, 300)}`);
      continue;
    }
    figures.push(`${day}: ${Object.entries(summary.counts).map(([kind, count]) => `${count} ${kind}`).join(', ')}`);
    if (run.code !== 0 || !summary.clean) {
      problems.push(`${day}: cli reconcile exited ${run.code}; ${JSON.stringify(summary.counts)}`);
      for (const d of summary.discrepancies.slice(0, 20)) problems.push(`${day}: ${JSON.stringify(d)}`);
    }
  }
  return { name: "provider reconciliation: the provider's statement matches our books", ok: problems.length === 0, summary: figures.join('; '), problems };
}
