import type { CheckResult } from './checks';
import type { FaultLog, LoadWindow } from './faults';
import type { FailoverTimes, HaCluster } from './ha-cluster';
import type { Attempt, Operation, ReceivedCallback } from './records';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `--failover`: the primary of the pg_auto_failover cluster killed `count` times, spread over the
 * load, each kill once the previous primary has rejoined as the synchronous standby (the second kill
 * then fails back to the first node). No process of the service is killed or restarted meanwhile: each
 * must find the new primary by itself. The load goes on `recoveryLoadMs` after the last promotion.
 */
export async function injectFailovers(options: { load: LoadWindow; cluster: HaCluster; count: number; recoveryLoadMs: number; log: (line: string) => void }): Promise<FaultLog> {
  const { load } = options;
  const faults: FaultLog = { kills: { api: 0, worker: 0, projector: 0 }, apiKillsInFlight: [], redisRestarts: 0, postgresTerminations: 0, postgresConnectionsTerminated: 0, timeline: [], failovers: [] };
  const note = (line: string) => {
    const entry = `+${((Date.now() - load.started) / 1000).toFixed(1)}s ${line}`;
    faults.timeline.push(entry);
    options.log(entry);
  };
  const duration = load.until - load.started;
  for (let i = 1; i <= options.count; i++) {
    await sleep(Math.max(0, load.started + (duration * i) / (options.count + 1) - Date.now()));
    note('failover: kill -9 of the primary (its keeper and its PostgreSQL)');
    // The clients go on until the promotion is known, however long the monitor takes on a loaded machine:
    // a load that ended at its planned time before the promotion would leave no request after it to check.
    const planned = load.until;
    load.until = Number.POSITIVE_INFINITY;
    const failover = await options.cluster.failover();
    faults.failovers!.push(failover);
    note(`failover: ${failover.to} promoted ${seconds(failover.promotedAt - failover.killedAt)} after the kill of ${failover.from}${repeated(failover)}; the old primary rejoined as its standby ${seconds(failover.rejoinedAt - failover.killedAt)} after it`);
    load.until = Math.max(planned, failover.promotedAt + options.recoveryLoadMs);
  }
  return faults;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What a failover's figures include when the monitor promoted no node after a kill and the kill was repeated. */
const repeated = (failover: FailoverTimes) =>
  failover.killsWithoutPromotion > 0 ? ` (killed ${failover.killsWithoutPromotion + 1} times: the monitor promoted no node after ${failover.killsWithoutPromotion} of them)` : '';

/** An attempt with when its answer came, and whether its operation writes. */
interface Answered extends Attempt {
  sentAt: number;
  answeredAt: number;
  write: boolean;
}

function answered(operations: Operation[]): Answered[] {
  return operations.flatMap((operation) =>
    operation.attempts.flatMap((attempt) =>
      attempt.sentAt === undefined ? [] : [{ ...attempt, sentAt: attempt.sentAt, answeredAt: attempt.sentAt + (attempt.ms ?? 0), write: operation.kind !== 'read' }],
    ),
  );
}

const ok = (attempt: Attempt) => attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;

function errorCode(attempt: Attempt): string | undefined {
  try {
    return JSON.parse(attempt.responseText ?? '')?.error?.code;
  } catch {
    return undefined;
  }
}

/**
 * Each failover: the unavailability window for writes and for reads, from the kill to the first
 * success of a request sent after it, within `withinMs` when given (a patient run holds no deadline); what the requests that failed in the
 * window got (a 5xx other than 503 `DATABASE_UNAVAILABLE` tells the client nothing it can rely on);
 * and callbacks delivered after the promotion, by workers that were never restarted.
 */
export function checkFailovers(failovers: FailoverTimes[], operations: Operation[], received: ReceivedCallback[], withinMs = Number.POSITIVE_INFINITY): CheckResult {
  const deadline = Number.isFinite(withinMs) ? ` within ${withinMs / 1000} s` : '';
  const name = `failover: writes and reads back${deadline} after each kill of the primary, failures retryable, callbacks delivered after it`;
  if (failovers.length === 0) return { name, ok: false, summary: 'no failover', problems: ['the run killed no primary'] };
  const attempts = answered(operations);
  const problems: string[] = [];
  const figures: string[] = [];
  for (const [i, failover] of failovers.entries()) {
    const label = `failover ${i + 1} (${failover.from} → ${failover.to})`;
    const firstSuccess = (write: boolean) =>
      attempts
        .filter((a) => a.write === write && a.sentAt >= failover.killedAt && ok(a))
        .reduce<number | undefined>((first, a) => (first === undefined || a.answeredAt < first ? a.answeredAt : first), undefined);
    const writesBack = firstSuccess(true);
    const readsBack = firstSuccess(false);
    for (const [what, back] of [['write', writesBack], ['read', readsBack]] as const) {
      if (back === undefined) problems.push(`${label}: no ${what} succeeded after the kill`);
      else if (back - failover.killedAt > withinMs) problems.push(`${label}: the first ${what} after the kill succeeded ${seconds(back - failover.killedAt)} after it`);
    }
    const windowEnd = Math.max(writesBack ?? Number.POSITIVE_INFINITY, readsBack ?? 0);
    const failed = attempts.filter((a) => a.sentAt < windowEnd && a.answeredAt >= failover.killedAt && !ok(a));
    const answers = new Map<string, number>();
    for (const attempt of failed) {
      const answer = attempt.status === undefined ? 'none' : [attempt.status, errorCode(attempt)].filter(Boolean).join(' ');
      answers.set(answer, (answers.get(answer) ?? 0) + 1);
      if (attempt.status !== undefined && attempt.status >= 500 && attempt.status !== 503) {
        problems.push(`${label}: ${attempt.requestId} answered ${attempt.status} ${errorCode(attempt) ?? ''} in the window, not 503`);
      }
    }
    const callbacksAfter = received.filter((r) => r.answer === 'ok' && r.receivedAt >= failover.promotedAt).length;
    if (callbacksAfter === 0) problems.push(`${label}: no callback delivered after the promotion`);
    figures.push(
      `${label}: promoted ${seconds(failover.promotedAt - failover.killedAt)}${repeated(failover)}, writes back ${writesBack === undefined ? 'never' : seconds(writesBack - failover.killedAt)}, reads back ${readsBack === undefined ? 'never' : seconds(readsBack - failover.killedAt)} after the kill; ${failed.length} requests failed meanwhile (${[...answers].map(([answer, n]) => `${n}× ${answer}`).join(', ') || 'none'}); ${callbacksAfter} callbacks delivered after`,
    );
  }
  return { name, ok: problems.length === 0, summary: figures.join('; '), problems };
}
