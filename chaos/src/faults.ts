import type { ApiKillWarning } from './api-kill-warning';
import type { RecordingClient } from './client';
import type { PostgresOutage } from './postgres-outage';
import type { ServiceProcess, ServiceRole } from './processes';
import { ReadinessPoller } from './readiness';
import type { OutageWindow, ReadinessSample } from './records';
import type { ChaosRedis } from './redis';
import type { FailoverTimes } from './ha-cluster';

export interface OutageRecord extends OutageWindow {
  method: PostgresOutage['method'];
}

export interface FaultLog {
  kills: Record<ServiceRole, number>;
  /** For each API kill, the clients' requests to that API cut off by it. */
  apiKillsInFlight: number[];
  redisRestarts: number;
  postgresTerminations: number;
  /** Connections pg_terminate_backend ended. */
  postgresConnectionsTerminated: number;
  postgresOutage?: OutageRecord;
  /** `--failover`: each kill of the cluster's primary (chaos/src/failovers.ts). */
  failovers?: FailoverTimes[];
  timeline: string[];
}

/** When the load ends: the outage pushes it on, so that the service's recovery is measured under load. */
export interface LoadWindow {
  started: number;
  until: number;
}

/** How long after the outage each API has to answer ready again. */
export const READY_AGAIN_WITHIN_MS = 30_000;
/** How long an API kill is announced before it happens (the journeys time requests to it). */
const API_KILL_NOTICE_MS = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The faults of one run, spread over its duration: a process of the service `kill -9`ed (and
 * started again) every few seconds, round robin over the APIs, the callback/payment workers and the
 * projectors; Redis lost once at 40%; every PostgreSQL connection of the service terminated once at
 * 60%; PostgreSQL away for `outageMs` at 75%, with each API's readiness polled meanwhile.
 */
export async function injectFaults(options: {
  load: LoadWindow;
  killEveryMs: number;
  killable: ServiceProcess[];
  client: RecordingClient;
  apiKills: ApiKillWarning;
  redis: ChaosRedis;
  terminateConnections: () => Promise<number>;
  postgres: PostgresOutage;
  outageMs: number;
  /** How long the load goes on after the PostgreSQL outage, for the recovery checks. */
  recoveryLoadMs: number;
  /** How long each API's readiness is polled after the outage for its first 200. */
  readyAgainWithinMs: number;
  log: (line: string) => void;
}): Promise<{ faults: FaultLog; readiness: ReadinessSample[] }> {
  const { load } = options;
  const faults: FaultLog = {
    kills: { api: 0, worker: 0, projector: 0 },
    apiKillsInFlight: [],
    redisRestarts: 0,
    postgresTerminations: 0,
    postgresConnectionsTerminated: 0,
    timeline: [],
  };
  const note = (line: string) => {
    const entry = `+${((Date.now() - load.started) / 1000).toFixed(1)}s ${line}`;
    faults.timeline.push(entry);
    options.log(entry);
  };
  const duration = load.until - load.started;
  const redisAt = load.started + duration * 0.4;
  const postgresAt = load.started + duration * 0.6;
  const outageAt = load.started + duration * 0.75;
  let poller: ReadinessPoller | undefined;
  let next = load.started + options.killEveryMs;
  let victim = 0;
  while (Date.now() < load.until || !faults.postgresOutage) {
    await sleep(100);
    const now = Date.now();
    if (faults.redisRestarts === 0 && now >= redisAt) {
      await options.redis.lose();
      faults.redisRestarts += 1;
      note(options.redis.faultDescription);
    }
    if (faults.postgresTerminations === 0 && now >= postgresAt) {
      faults.postgresTerminations += 1;
      faults.postgresConnectionsTerminated = await options.terminateConnections();
      note(`pg_terminate_backend: ${faults.postgresConnectionsTerminated} connections of the service terminated`);
    }
    if (!faults.postgresOutage && now >= outageAt) {
      // The clients must still be running when the outage ends, and for a while after it.
      load.until = Math.max(load.until, now + options.outageMs + options.recoveryLoadMs);
      poller = new ReadinessPoller(options.killable.flatMap((p) => (p.url ? [p.url] : [])));
      faults.postgresOutage = await outage(options, poller, note);
      load.until = Math.max(load.until, faults.postgresOutage.endedAt + options.recoveryLoadMs);
      next = Date.now() + options.killEveryMs;
      continue;
    }
    // Only a process that finished starting is killed, and only while another of its role serves: on
    // a loaded machine a restart can take longer than the interval, and a role with no process left is
    // an outage of the whole service, not a fault it is expected to hide from its clients.
    const killable = (p: ServiceProcess) => p.ready && options.killable.some((other) => other !== p && other.role === p.role && other.ready);
    const target = now >= next ? [...options.killable.slice(victim), ...options.killable].find(killable) : undefined;
    if (target) {
      victim = (options.killable.indexOf(target) + 1) % options.killable.length;
      await kill(target, options, faults, note);
      next = Date.now() + options.killEveryMs * (0.75 + Math.random() * 0.5);
    }
  }
  return { faults, readiness: poller ? await poller.done() : [] };
}

/** `kill -9` of one process, started again a moment later. An API is killed with requests in flight, once its kill was announced. */
async function kill(target: ServiceProcess, options: Parameters<typeof injectFaults>[0], faults: FaultLog, note: (line: string) => void): Promise<void> {
  let detail = '';
  if (target.role === 'api') {
    options.apiKills.announce();
    await sleep(API_KILL_NOTICE_MS);
    // Mid-request: the kill waits (a little) for a client request to be under way on that API.
    const deadline = Date.now() + 1000;
    while (options.client.inFlight(target.url!) === 0 && Date.now() < deadline) await sleep(5);
    const inFlight = options.client.inFlight(target.url!);
    faults.apiKillsInFlight.push(inFlight);
    detail = ` with ${inFlight} client requests in flight`;
  }
  await target.kill();
  faults.kills[target.role] += 1;
  note(`kill -9 ${target.name}${detail}`);
  await sleep(300);
  target.start();
}

async function outage(
  options: Parameters<typeof injectFaults>[0],
  poller: ReadinessPoller,
  note: (line: string) => void,
): Promise<OutageRecord> {
  note(await options.postgres.begin());
  const startedAt = Date.now();
  poller.start();
  await sleep(options.outageMs);
  const refusedUntil = Date.now();
  note(await options.postgres.end());
  const endedAt = Date.now();
  poller.outageEnded(endedAt, endedAt + options.readyAgainWithinMs);
  return { method: options.postgres.method, startedAt, refusedUntil, endedAt };
}
