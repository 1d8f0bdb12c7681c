import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { runChaos, SHORT_FAILOVER_RUN } from '../../chaos/src/run-chaos';
import { checkNames } from '../support/chaos-checks';
import { keptRunLogs } from '../support/run-logs';

/**
 * Three consecutive ports nothing listens on: the cluster's monitor takes the first, its nodes the next two.
 * Below the kernel's ephemeral range (32768 and up), which the other test files' servers and every outgoing
 * connection draw from: a killed node's port taken meanwhile would keep it from starting again.
 */
async function freePortRun(): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 4_000) * 3;
    if ((await free(base)) && (await free(base + 1)) && (await free(base + 2))) return base;
  }
}

/**
 * A PostgreSQL failover under the money workload (`npm run chaos -- --failover --short`): a
 * pg_auto_failover monitor and two nodes of its own on local ports (scripts/ha.js), the service as
 * separate processes (two APIs, two workers, two projectors) on the nodes' multi-host DATABASE_URL with
 * its queues in PostgreSQL, clients writing (escrows, payments, releases, refunds, transfers, payouts)
 * while the primary is killed with `kill -9` and the synchronous standby is promoted.
 *
 * The chaos run's checks say what must hold after it: every request answered 2xx is in the new
 * primary's log, and nothing twice; every request was answered in the end, its retries under its
 * Idempotency-Key; the trial balance is zero and each account equals its postings; every callback
 * delivered once; the read models caught up with the log. No process of the service is restarted, so
 * the projector and the workers found the new primary by themselves; the failover check adds that
 * writes and reads succeeded again after the kill, that what failed meanwhile failed with a retryable
 * 503, and that callbacks were delivered after the promotion. It asserts no timing.
 */
const logged = keptRunLogs();

it('loses nothing acknowledged when the primary is killed and its synchronous standby takes over', async () => {
  const ha = { dir: `/tmp/escrow-ha-test-${randomBytes(4).toString('hex')}`, monitorPort: await freePortRun() };
  const report = await logged('the failover run', (log) => runChaos({ ...SHORT_FAILOVER_RUN, ha, patient: true, log }));

  expect(report.faults.failovers).toHaveLength(1);
  expect(report.faults.kills).toEqual({ api: 0, worker: 0, projector: 0 });
  expect(report.figures.responses2xx).toBeGreaterThan(20);
  expect(report.figures.callbacksDelivered).toBeGreaterThan(0);
  expect(report.checks.map((check) => check.name)).toEqual(checkNames(/^failover/));
  expect(report.checks.filter((check) => !check.ok).map((check) => ({ check: check.name, problems: check.problems.slice(0, 5), runDir: report.runDir }))).toEqual([]);
});
