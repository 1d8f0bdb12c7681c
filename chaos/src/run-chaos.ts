import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { primaryConnection } from '@app/database';
import { queueSchema } from '@app/scheduling';
import { ApiKillWarning } from './api-kill-warning';
import {
  type CheckResult,
  checkAnswered,
  checkCallbacks,
  checkIntegrity,
  checkLedger,
  checkOpenWork,
  checkPayouts,
  checkAccounts,
  checkPayoutAvailability,
  checkReversals,
  checkSettlement,
  checkReadiness,
  checkRecoveryLatency,
  checkSecrets,
  checkWorkRetries,
  checkWrites,
} from './checks';
import { checkLiveBalancesUntouchedByTest, checkTestObjectsNeverLive } from './checks-modes';
import { RecordingClient } from './client';
import { startDeployment } from './deployment';
import { collectEvidence } from './evidence';
import { checkFailovers, injectFailovers } from './failovers';
import { type FaultLog, injectFaults, type LoadWindow, READY_AGAIN_WITHIN_MS } from './faults';
import { haCluster, type HaClusterOptions } from './ha-cluster';
import { clusterRestart, proxyOutage } from './postgres-outage';
import { PostgresProxy } from './postgres-proxy';
import { waitForQuiescence } from './quiescence';
import { registerParticipants } from './participants';
import { addisDaysBetween, checkProviderReconciliation, cliFor } from './provider-reconciliation';
import { type ChaosProvider, startProvider } from './provider';
import { startReceiver } from './receiver';
import type { Operation, Secret } from './records';
import { startRedis } from './redis';
import { runClient } from './workload';

export interface ChaosOptions {
  seconds: number;
  clients: number;
  /** Keep the PostgreSQL schema afterwards (the run's directory of logs and records is always kept). */
  keep?: boolean;
  killEveryMs?: number;
  /** How long PostgreSQL is away (10 s unless given). */
  postgresOutageSeconds?: number;
  /** How long the load goes on after the outage, so the recovery is measured under load (20 s). */
  recoverySeconds?: number;
  /** Stop and start the local PostgreSQL cluster (pg_ctlcluster) for the outage instead of cutting the run's proxy: every session of the server ends. */
  restartPostgres?: boolean;
  merchants?: number;
  /**
   * Kill the primary of a pg_auto_failover cluster (scripts/ha.js) this many times instead of the other
   * faults: the service runs on the cluster's multi-host URL with its queues in PostgreSQL, no Redis,
   * and none of its processes is killed, so each must find the new primary by itself.
   */
  failovers?: number;
  /** Where that cluster lives (`npm run ha`'s by default); it is started if it is not running, and removed afterwards if this run created it. */
  ha?: Omit<HaClusterOptions, 'log'>;
  /** The payment provider: the sandbox inside the service, or Chapa's simulator beside it (lost, repeated and delayed webhooks). */
  provider?: ChaosProvider['name'];
  /**
   * Wait for the service as long as it takes: settling, readiness after the outage and a client's
   * retries get no deadline of their own. For the test suite, where a loaded machine is slow and
   * jest's limit bounds the run; `npm run chaos` holds the deadlines as targets.
   */
  patient?: boolean;
  log?: (line: string) => void;
}

/** The run inside `npm test`: long enough for a few kills of each role and every one-off fault (the outage adds 4 s, and 20 s of load after it). */
export const SHORT_RUN: ChaosOptions = { seconds: 14, clients: 6, killEveryMs: 3000, postgresOutageSeconds: 3, recoverySeconds: 10 };

/** The failover run inside `npm test`: one kill of the primary halfway through 14 s of load, and 10 s of load after the promotion. */
export const SHORT_FAILOVER_RUN: ChaosOptions = { seconds: 14, clients: 6, failovers: 1, recoverySeconds: 10 };

/** How soon after a kill of the primary writes and reads must succeed again (issue 40: 30 s with the defaults chosen). */
const FAILOVER_WITHIN_MS = 30_000;

/** `npm run ha`'s cluster (scripts/ha.js). */
const HA = { dir: process.env.HA_DIR ?? '/tmp/escrow-ha', monitorPort: Number(process.env.HA_MONITOR_PORT ?? 55400) };

export interface ChaosFigures {
  seconds: number;
  /** How long the load lasted: `seconds`, extended to go on after the PostgreSQL outage. */
  loadSeconds: number;
  clients: number;
  operations: number;
  requests: number;
  responses2xx: number;
  responses4xx: number;
  responses5xx: number;
  noResponse: number;
  events: number;
  callbacksReceived: number;
  callbacksDelivered: number;
  callbacksRefused: number;
  callbacksHung: number;
  unexpectedExits: number;
  quiescenceMs: number;
  provider: ChaosProvider['name'];
  /** What Chapa's simulator did to its webhooks (lost for good, sent twice, held back). */
  providerNotificationFaults?: { lost: number; repeated: number; delayed: number };
}

export interface ChaosReport {
  runId: string;
  runDir: string;
  figures: ChaosFigures;
  faults: FaultLog;
  checks: CheckResult[];
  ok: boolean;
}

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** WHATWG's URL refuses a multi-host URL's list of hosts: the parameter is appended as text. */
function withApplicationName(databaseUrl: string, name: string): string {
  return `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}application_name=${encodeURIComponent(name)}`;
}

/** One statement on a session of its own, outside the service's: a --restart-postgres outage ends any session held across it. */
async function adminQuery<Row>(databaseUrl: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  const admin = new Client(primaryConnection(databaseUrl).config);
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    return (await admin.query(sql, params)).rows as Row[];
  } finally {
    await admin.end().catch(() => undefined);
  }
}

function figuresOf(operations: Operation[]) {
  const attempts = operations.flatMap((o) => o.attempts);
  const within = (low: number, high: number) => attempts.filter((a) => a.status !== undefined && a.status >= low && a.status < high).length;
  return {
    operations: operations.length,
    requests: attempts.length,
    responses2xx: within(200, 300),
    responses4xx: within(400, 500),
    responses5xx: within(500, 600),
    noResponse: attempts.filter((a) => a.status === undefined).length,
  };
}

/**
 * Runs the service as separate processes under a mixed workload from concurrent clients while
 * injecting faults, waits for it to settle, and checks its invariants from the outside.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  // A patient run's deadlines are the longest timer Node keeps: none that a run reaches.
  const within = (ms: number) => (options.patient ? 2 ** 31 - 1 : ms);
  const runId = `chaos_${randomBytes(5).toString('hex')}`;
  const runStarted = Date.now();
  const runDir = mkdtempSync(join(tmpdir(), `${runId}-`));
  const teardown: (() => Promise<unknown>)[] = [];
  try {
    // Before anything is created: an unusable --restart-postgres fails the run at once.
    const outage = options.restartPostgres ? await clusterRestart(DATABASE_URL) : undefined;
    const cluster = options.failovers ? haCluster({ ...(options.ha ?? HA), log }) : undefined;
    if (cluster) {
      const created = !existsSync((options.ha ?? HA).dir);
      if (created) teardown.push(() => cluster.down());
      await cluster.up();
    }
    const database = cluster?.databaseUrl ?? DATABASE_URL;
    await adminQuery(database, `CREATE SCHEMA ${runId}`);
    // After the cluster's own teardown in the list, so before it when the list is run backwards.
    if (!options.keep) {
      teardown.push(async () => {
        await adminQuery(database, `DROP SCHEMA IF EXISTS ${runId} CASCADE`);
        await adminQuery(database, `DROP SCHEMA IF EXISTS ${queueSchema(runId)} CASCADE`);
      });
    }
    // A failover run has neither: the cluster's own nodes die, and the queues are in PostgreSQL.
    let proxy: PostgresProxy | undefined;
    let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
    if (!cluster) {
      const databaseAddress = new URL(DATABASE_URL);
      const started = await PostgresProxy.start({ host: databaseAddress.hostname, port: Number(databaseAddress.port || 5432) });
      proxy = started;
      teardown.push(() => started.close());
      const own = await startRedis(runDir, runId, REDIS_URL, within(10_000));
      redis = own;
      teardown.push(() => own.close());
    }
    const receiver = await startReceiver({ failureRate: 0.25, hangMs: 1500 });
    teardown.push(() => receiver.close());

    // The run's own application_name marks its connections, so that pg_terminate_backend hits no one else's;
    // they go through the proxy, which takes PostgreSQL away from this service alone.
    const databaseUrl = withApplicationName(proxy?.urlFor(DATABASE_URL) ?? database, runId);
    const adminKey = `chaos-admin-${randomBytes(16).toString('hex')}`;
    const secretsKey = randomBytes(32);
    // The APIs' addresses are known once the deployment is up; the provider sends to them only after that.
    let apis: string[] = [];
    const provider = await startProvider(options.provider ?? 'sandbox', () => apis);
    teardown.push(() => provider.close());
    const deployment = await startDeployment(
      {
        ...provider.env,
        DATABASE_URL: databaseUrl,
        DATABASE_SCHEMA: runId,
        ...(redis ? { REDIS_URL: redis.url, REDIS_PREFIX: runId } : {}),
        SECRETS_KEY: secretsKey.toString('hex'),
        ADMIN_API_KEY: adminKey,
      },
      runDir,
      within(60_000),
    );
    apis = deployment.apis;
    teardown.push(() => Promise.all(deployment.all.map((p) => p.close())));
    const backends = proxy && redis ? `PostgreSQL through a proxy on port ${proxy.port}, Redis ${redis.url}` : `PostgreSQL on the cluster ${database}, the queues in it`;
    log(`run ${runId}: ${deployment.all.map((p) => p.name).join(', ')}; provider ${provider.name}; ${backends}; logs in ${runDir}`);

    const outageMs = (options.postgresOutageSeconds ?? 10) * 1000;
    // A killed API may take half a minute to start again on a loaded machine, while the other meets the
    // database faults: a client that gave up sooner would count the run's own timing as a lost answer.
    const client = new RecordingClient(runId, deployment.apis, within(outageMs + 60_000));
    const { merchants, tenants, auditorKey, secrets: issued } = await registerParticipants(client, adminKey, receiver, options.merchants ?? 3, { url: database, schema: runId }, provider);
    const secrets: Secret[] = [
      { name: 'ADMIN_API_KEY', value: adminKey },
      { name: 'SECRETS_KEY (hex)', value: secretsKey.toString('hex') },
      { name: 'SECRETS_KEY (base64)', value: secretsKey.toString('base64') },
      ...provider.secrets,
      ...issued,
    ];

    const started = Date.now();
    const load: LoadWindow = { started, until: started + options.seconds * 1000 };
    const apiKills = new ApiKillWarning();
    const recoveryLoadMs = (options.recoverySeconds ?? 20) * 1000;
    log(`driving ${options.clients} clients for ${options.seconds} s, and on for ${recoveryLoadMs / 1000} s after the ${cluster ? 'last failover' : 'PostgreSQL outage'}`);
    const [{ faults, readiness }] = await Promise.all([
      cluster
        ? injectFailovers({ load, cluster, count: options.failovers!, recoveryLoadMs, log }).then((faults) => ({ faults, readiness: [] }))
        : injectFaults({
        load,
        killEveryMs: options.killEveryMs ?? 4000,
        killable: deployment.killable,
        client,
        apiKills,
        redis: redis!,
        terminateConnections: async () =>
          (
            await adminQuery<{ terminated: boolean }>(
              database,
              `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
              [runId],
            )
          ).filter((row) => row.terminated).length,
        postgres: outage ?? proxyOutage(proxy!),
        outageMs,
        recoveryLoadMs,
        readyAgainWithinMs: within(READY_AGAIN_WITHIN_MS),
        log,
      }),
      ...Array.from({ length: options.clients }, () => runClient(client, merchants, load, apiKills)),
    ]);
    const loadEnded = Date.now();
    for (const service of deployment.all) if (!service.running) service.start();

    log('waiting for the service to settle');
    // Connected only now: a --restart-postgres outage would have ended an earlier session.
    const db = new Client(primaryConnection(database, { options: `-c search_path=${runId}` }).config);
    db.on('error', () => undefined);
    await db.connect();
    teardown.push(() => db.end());
    const settled = await waitForQuiescence(db, within(120_000), log);
    const evidenceAt = Date.now();
    const evidence = await collectEvidence(client, auditorKey, merchants, tenants);
    await Promise.all(deployment.all.map((p) => p.stop()));
    // After the evidence: the reconciliation records a run of its own in the log.
    const cli = cliFor({ ...provider.env, DATABASE_URL: withApplicationName(database, runId), DATABASE_SCHEMA: runId, SECRETS_KEY: secretsKey.toString('hex'), DATA_DIR: runDir });
    const reconciliation = await checkProviderReconciliation(provider, cli, addisDaysBetween(new Date(runStarted), new Date()), runDir);
    writeFileSync(join(runDir, 'operations.json'), JSON.stringify(client.operations, null, 1));
    writeFileSync(join(runDir, 'callbacks.json'), JSON.stringify(receiver.received, null, 1));
    writeFileSync(join(runDir, 'events.json'), JSON.stringify(evidence.events, null, 1));
    writeFileSync(join(runDir, 'readiness.json'), JSON.stringify(readiness, null, 1));

    const responses = client.operations.flatMap((operation) =>
      operation.attempts.map((a) => ({ name: `${operation.method} ${operation.path} (${a.requestId})`, operationId: operation.id, text: a.responseText ?? '' })),
    );
    const others = [
      ...deployment.all.map((p) => ({ name: `the log of ${p.name}`, text: p.output() })),
      { name: 'the event log', text: JSON.stringify(evidence.events) },
      { name: 'the callbacks received', text: receiver.received.map((r) => r.body).join('\n') },
    ];
    const unexpectedExits = deployment.all.reduce((sum, p) => sum + p.unexpectedExits, 0);
    const checks: CheckResult[] = [
      {
        name: 'quiescence: the service settled after the faults',
        ok: settled.quiet,
        summary: `${settled.waitedMs} ms`,
        problems: settled.quiet ? [] : [`still busy after ${settled.waitedMs} ms: ${JSON.stringify(settled.backlog)}`],
      },
      {
        name: 'processes: none exited unbidden',
        ok: unexpectedExits === 0,
        summary: `${deployment.all.length} processes`,
        problems: deployment.all.filter((p) => p.unexpectedExits > 0).map((p) => `${p.name} exited ${p.unexpectedExits} times on its own (see ${p.logFile})`),
      },
      checkWrites(client.operations, evidence.events),
      checkAnswered(client.operations),
      checkOpenWork(evidence.events, evidenceAt, provider.answering),
      checkLedger(evidence.ledger, evidence.escrows),
      checkPayouts(evidence.events, evidence.payoutReports),
      checkSettlement(evidence.events, evidence.ledger),
      checkAccounts(evidence.events, evidence.ledger, evidence.accountBalances),
      checkPayoutAvailability(evidence.events),
      checkReversals(evidence.events),
      checkWorkRetries(deployment.all.filter((p) => p.role === 'worker').map((p) => ({ name: `the log of ${p.name}`, text: p.output() }))),
      reconciliation,
      checkCallbacks(evidence.events, receiver.received),
      checkIntegrity(evidence.integrity),
      checkSecrets(secrets, responses, others),
      checkTestObjectsNeverLive(evidence.events, evidence.parties, provider.liveRequests()),
      checkLiveBalancesUntouchedByTest(evidence.events, evidence.parties, client.operations, evidence.liveEntries),
      ...(cluster
        ? [checkFailovers(faults.failovers ?? [], client.operations, receiver.received, options.patient ? undefined : FAILOVER_WITHIN_MS)]
        : [checkReadiness(readiness, deployment.apis, faults.postgresOutage, within(READY_AGAIN_WITHIN_MS)), checkRecoveryLatency(client.operations, started, faults.postgresOutage)]),
    ];
    const figures: ChaosFigures = {
      seconds: options.seconds,
      loadSeconds: Math.round((loadEnded - started) / 1000),
      clients: options.clients,
      ...figuresOf(client.operations),
      events: evidence.events.length,
      callbacksReceived: receiver.received.length,
      callbacksDelivered: receiver.received.filter((r) => r.answer === 'ok').length,
      callbacksRefused: receiver.received.filter((r) => r.answer === 'error').length,
      callbacksHung: receiver.received.filter((r) => r.answer === 'hang').length,
      unexpectedExits,
      quiescenceMs: settled.waitedMs,
      provider: provider.name,
      ...(provider.notificationFaults() ? { providerNotificationFaults: provider.notificationFaults() } : {}),
    };
    const report: ChaosReport = { runId, runDir, figures, faults, checks, ok: checks.every((c) => c.ok) };
    writeFileSync(join(runDir, 'report.json'), JSON.stringify(report, null, 1));
    return report;
  } finally {
    for (const step of teardown.reverse()) await step().catch((error: unknown) => log(`teardown: ${String(error)}`));
  }
}
