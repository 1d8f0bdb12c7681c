import { runChaos, SHORT_RUN } from '../../chaos/src/run-chaos';

/**
 * The short chaos run (`npm run chaos -- --short`): separate API and worker processes under load,
 * workers killed with SIGKILL, Redis lost, PostgreSQL connections terminated; every invariant holds.
 */
it('keeps every invariant through worker kills, a lost Redis and terminated PostgreSQL connections', async () => {
  const lines: string[] = [];
  const report = await runChaos({ ...SHORT_RUN, log: (line) => lines.push(line) });

  expect(report.faults).toMatchObject({ redisRestarts: 1, postgresTerminations: 1 });
  expect(report.faults.workerKills).toBeGreaterThanOrEqual(3);
  expect(report.faults.postgresConnectionsTerminated).toBeGreaterThan(0);
  expect(report.figures.responses2xx).toBeGreaterThan(50);
  expect(report.figures.callbacksDelivered).toBeGreaterThan(0);
  expect(report.checks.map((check) => check.name)).toEqual([
    expect.stringMatching(/^quiescence/),
    expect.stringMatching(/^processes/),
    expect.stringMatching(/^writes/),
    expect.stringMatching(/^ledger/),
    expect.stringMatching(/^callbacks/),
    expect.stringMatching(/^integrity/),
    expect.stringMatching(/^secrets/),
  ]);
  // Problems are compared rather than a boolean, so a failure shows what broke (details in report.runDir).
  expect(report.checks.filter((check) => !check.ok).map((check) => ({ check: check.name, problems: check.problems.slice(0, 5), runDir: report.runDir }))).toEqual([]);
}, 300_000);
