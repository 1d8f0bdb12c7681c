import { Command, InvalidArgumentError, Option } from 'commander';
import type { FaultLog } from './faults';
import { type ChaosOptions, type ChaosReport, runChaos, SHORT_FAILOVER_RUN, SHORT_RUN } from './run-chaos';

function positive(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('a positive integer');
  return number;
}

function describeOutage(faults: FaultLog): string {
  if (faults.failovers) {
    const times = faults.failovers.map((f) => `${f.from} → ${f.to} promoted ${((f.promotedAt - f.killedAt) / 1000).toFixed(1)} s after the kill`);
    return `${faults.failovers.length} kills of the primary (${times.join('; ')})`;
  }
  const outage = faults.postgresOutage;
  if (!outage) return 'no PostgreSQL outage';
  const by = outage.method === 'proxy' ? 'the proxy refusing connections' : 'pg_ctlcluster stop and start';
  return `PostgreSQL away ${((outage.endedAt - outage.startedAt) / 1000).toFixed(1)} s (${by})`;
}

function print(report: ChaosReport): void {
  const f = report.figures;
  const { kills, apiKillsInFlight } = report.faults;
  const cutOff = apiKillsInFlight.reduce((sum, n) => sum + n, 0);
  const lines = [
    '',
    `load: ${f.operations} operations, ${f.requests} requests from ${f.clients} clients in ${f.loadSeconds} s (${f.seconds} s, then on after the ${report.faults.failovers ? 'last failover' : 'outage'}): ${f.responses2xx} 2xx, ${f.responses4xx} 4xx, ${f.responses5xx} 5xx, ${f.noResponse} without a response`,
    report.faults.failovers
      ? `faults: ${describeOutage(report.faults)}; no process of the service killed`
      : `faults: kill -9 of ${kills.api} APIs (${cutOff} client requests in flight), ${kills.worker} workers and ${kills.projector} projectors; ${report.faults.redisRestarts} Redis restart; ${report.faults.postgresConnectionsTerminated} PostgreSQL connections terminated; ${describeOutage(report.faults)}`,
    ...report.faults.timeline.filter((entry) => entry.includes('PostgreSQL outage') || entry.includes('failover')).map((entry) => `        ${entry}`),
    `provider: ${f.provider}${f.providerNotificationFaults ? ` (webhooks: ${f.providerNotificationFaults.lost} lost, ${f.providerNotificationFaults.repeated} sent twice, ${f.providerNotificationFaults.delayed} held back)` : ''}`,
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

interface CommandLine {
  seconds: number;
  clients: number;
  short?: boolean;
  keep?: boolean;
  postgresOutageSeconds?: number;
  restartPostgres?: boolean;
  failover?: number | true;
  provider: 'sandbox' | 'chapa';
}

const program = new Command('chaos')
  .description(
    'Drives the service (separate API, worker and projector processes) under load while killing its processes, losing Redis, cutting PostgreSQL connections and taking PostgreSQL away, then checks its invariants',
  )
  .option('--seconds <n>', 'how long the load and the faults last (the load goes on 20 s after the PostgreSQL outage)', positive, 60)
  .option('--clients <n>', 'concurrent clients', positive, 16)
  .option('--postgres-outage-seconds <n>', 'how long PostgreSQL is away at 75% of the run (default 10; 4 in --short)', positive)
  .option('--restart-postgres', 'for the outage, stop and start the local PostgreSQL cluster with pg_ctlcluster instead of cutting the run\'s proxy: ends every session of the server, so never where others share it')
  .option(
    '--failover [kills]',
    'instead of the other faults, run on the pg_auto_failover cluster of `npm run ha` (started if it is not running) with the queues in PostgreSQL, and kill its primary this many times (2: there and back)',
    positive,
  )
  .option('--short', 'the short run of the test suite: 14 s, 6 clients, a 3 s outage (or one failover), 10 s of load after it')
  .option('--keep', 'keep the PostgreSQL schema afterwards')
  .addOption(
    new Option('--provider <name>', 'the payment provider: the sandbox, or Chapa through its simulator (a tenth of its webhooks lost, a fifth sent twice, any held back up to 2 s)')
      .choices(['sandbox', 'chapa'])
      .default('sandbox'),
  )
  .action(async ({ short, ...given }: CommandLine) => {
    const failovers = given.failover === true ? 2 : given.failover;
    const chosen: Partial<ChaosOptions> = {
      ...(failovers ? { failovers } : {}),
      keep: given.keep,
      restartPostgres: given.restartPostgres,
      provider: given.provider,
      ...(given.postgresOutageSeconds === undefined ? {} : { postgresOutageSeconds: given.postgresOutageSeconds }),
    };
    const report = await runChaos(short ? { ...(failovers ? SHORT_FAILOVER_RUN : SHORT_RUN), ...chosen } : { seconds: given.seconds, clients: given.clients, ...chosen });
    print(report);
    process.exitCode = report.ok ? 0 : 1;
  });

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`chaos run failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(2);
});
