import { Presets, SingleBar } from 'cli-progress';

export interface Output {
  json: boolean;
}

/** Human-readable by default; `--json` prints one JSON document, for scripts. */
export function print(output: Output, human: string, data: unknown): void {
  process.stdout.write(output.json ? `${JSON.stringify(data, null, 2)}\n` : `${human}\n`);
}

export function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)';
  const columns = Object.keys(rows[0]);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => String(r[c] ?? ''))))].join('\n');
}

/** A progress bar with events per second, on stderr so `--json` output stays clean. Silent with --json. */
export function progressBar(output: Output, total: number) {
  if (output.json || !process.stderr.isTTY) return { update: (_: number) => undefined, stop: () => undefined };
  const started = Date.now();
  const bar = new SingleBar(
    { format: '{bar} {value}/{total} events | {rate} events/s | {duration_formatted}', stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  bar.start(Math.max(total, 1), 0, { rate: 0 });
  return {
    update: (done: number) => {
      if (done > bar.getTotal()) bar.setTotal(done);
      bar.update(done, { rate: Math.round(done / Math.max((Date.now() - started) / 1000, 0.001)) });
    },
    stop: () => bar.stop(),
  };
}
