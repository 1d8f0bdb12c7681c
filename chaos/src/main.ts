import { Command, InvalidArgumentError } from 'commander';
import { type ChaosReport, runChaos, SHORT_RUN } from './run-chaos';

function positive(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('a positive integer');
  return number;
}

function print(report: ChaosReport): void {
  const f = report.figures;
  const lines = [
    '',
    `load: ${f.operations} operations, ${f.requests} requests from ${f.clients} clients in ${f.seconds} s: ${f.responses2xx} 2xx, ${f.responses4xx} 4xx, ${f.responses5xx} 5xx, ${f.noResponse} without a response`,
    `faults: ${report.faults.workerKills} kill -9 of worker processes, ${report.faults.redisRestarts} Redis restart, ${report.faults.postgresConnectionsTerminated} PostgreSQL connections terminated`,
    `callbacks: ${f.callbacksReceived} received, ${f.callbacksDelivered} answered 200, ${f.callbacksRefused} answered 500, ${f.callbacksHung} left hanging`,
    `events: ${f.events}; settled ${f.quiescenceMs} ms after the load stopped`,
    '',
    ...report.checks.flatMap((check) => [
      `${check.ok ? 'PASS' : 'FAIL'}  ${check.name} (${check.summary})`,
      ...check.problems.slice(0, 10).map((problem) => `        ${problem}`),
      ...(check.problems.length > 10 ? [`        ... and ${check.problems.length - 10} more`] : []),
    ]),
    '',
    `records and process logs: ${report.runDir}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

const program = new Command('chaos')
  .description('Drives the service (separate API and worker processes) under load while killing workers, losing Redis and cutting PostgreSQL connections, then checks its invariants')
  .option('--seconds <n>', 'how long the load and the faults last', positive, 60)
  .option('--clients <n>', 'concurrent clients', positive, 16)
  .option('--short', 'the short run of the test suite: 15 s, 6 clients')
  .option('--keep', 'keep the PostgreSQL schema afterwards')
  .action(async (options: { seconds: number; clients: number; short?: boolean; keep?: boolean }) => {
    const report = await runChaos(options.short ? { ...SHORT_RUN, keep: options.keep } : options);
    print(report);
    process.exitCode = report.ok ? 0 : 1;
  });

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`chaos run failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(2);
});
