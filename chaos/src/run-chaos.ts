import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
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
import { RecordingClient } from './client';
import { startDeployment } from './deployment';
import { collectEvidence } from './evidence';
import { type FaultLog, injectFaults, type LoadWindow, READY_AGAIN_WITHIN_MS } from './faults';
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

/** One statement on a session of its own, outside the service's: a --restart-postgres outage ends any session held across it. */
async function adminQuery<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
  const admin = new Client({ connectionString: DATABASE_URL });
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
    await adminQuery(`CREATE SCHEMA ${runId}`);
    if (!options.keep) teardown.push(() => adminQuery(`DROP SCHEMA IF EXISTS ${runId} CASCADE`));
    const databaseAddress = new URL(DATABASE_URL);
    const proxy = await PostgresProxy.start({ host: databaseAddress.hostname, port: Number(databaseAddress.port || 5432) });
    teardown.push(() => proxy.close());
    const redis = await startRedis(runDir, runId, REDIS_URL, within(10_000));
    teardown.push(() => redis.close());
    const receiver = await startReceiver({ failureRate: 0.25, hangMs: 1500 });
    teardown.push(() => receiver.close());

    // The run's own application_name marks its connections, so that pg_terminate_backend hits no one else's;
    // they go through the proxy, which takes PostgreSQL away from this service alone.
    const databaseUrl = new URL(proxy.urlFor(DATABASE_URL));
    databaseUrl.searchParams.set('application_name', runId);
    const adminKey = `chaos-admin-${randomBytes(16).toString('hex')}`;
    const secretsKey = randomBytes(32);
    // The APIs' addresses are known once the deployment is up; the provider sends to them only after that.
    let apis: string[] = [];
    const provider = await startProvider(options.provider ?? 'sandbox', () => apis);
    teardown.push(() => provider.close());
    const deployment = await startDeployment(
      {
        ...provider.env,
        DATABASE_URL: databaseUrl.toString(),
        DATABASE_SCHEMA: runId,
        REDIS_URL: redis.url,
        REDIS_PREFIX: runId,
        SECRETS_KEY: secretsKey.toString('hex'),
        ADMIN_API_KEY: adminKey,
      },
      runDir,
      within(60_000),
    );
    apis = deployment.apis;
    teardown.push(() => Promise.all(deployment.all.map((p) => p.close())));
    log(`run ${runId}: ${deployment.all.map((p) => p.name).join(', ')}; provider ${provider.name}; PostgreSQL through a proxy on port ${proxy.port}, Redis ${redis.url}, logs in ${runDir}`);

    const outageMs = (options.postgresOutageSeconds ?? 10) * 1000;
    // A killed API may take half a minute to start again on a loaded machine, while the other meets the
    // database faults: a client that gave up sooner would count the run's own timing as a lost answer.
    const client = new RecordingClient(runId, deployment.apis, within(outageMs + 60_000));
    const { merchants, auditorKey, secrets: issued } = await registerParticipants(client, adminKey, receiver, options.merchants ?? 3, { url: DATABASE_URL, schema: runId });
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
    log(`driving ${options.clients} clients for ${options.seconds} s, and on for ${options.recoverySeconds ?? 20} s after the PostgreSQL outage`);
    const [{ faults, readiness }] = await Promise.all([
      injectFaults({
        load,
        killEveryMs: options.killEveryMs ?? 4000,
        killable: deployment.killable,
        client,
        apiKills,
        redis,
        terminateConnections: async () =>
          (
            await adminQuery<{ terminated: boolean }>(
              `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
              [runId],
            )
          ).filter((row) => row.terminated).length,
        postgres: outage ?? proxyOutage(proxy),
        outageMs,
        recoveryLoadMs: (options.recoverySeconds ?? 20) * 1000,
        readyAgainWithinMs: within(READY_AGAIN_WITHIN_MS),
        log,
      }),
      ...Array.from({ length: options.clients }, () => runClient(client, merchants, load, apiKills, provider.phones)),
    ]);
    const loadEnded = Date.now();
    for (const service of deployment.all) if (!service.running) service.start();

    log('waiting for the service to settle');
    // Connected only now: a --restart-postgres outage would have ended an earlier session.
    const db = new Client({ connectionString: DATABASE_URL, options: `-c search_path=${runId}` });
    db.on('error', () => undefined);
    await db.connect();
    teardown.push(() => db.end());
    const settled = await waitForQuiescence(db, within(120_000));
    const evidenceAt = Date.now();
    const evidence = await collectEvidence(client, auditorKey, merchants);
    await Promise.all(deployment.all.map((p) => p.stop()));
    // After the evidence: the reconciliation records a run of its own in the log.
    const directUrl = new URL(DATABASE_URL);
    directUrl.searchParams.set('application_name', runId);
    const cli = cliFor({ ...provider.env, DATABASE_URL: directUrl.toString(), DATABASE_SCHEMA: runId, SECRETS_KEY: secretsKey.toString('hex'), DATA_DIR: runDir });
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
      checkReadiness(readiness, deployment.apis, faults.postgresOutage, within(READY_AGAIN_WITHIN_MS)),
      checkRecoveryLatency(client.operations, started, faults.postgresOutage),
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
