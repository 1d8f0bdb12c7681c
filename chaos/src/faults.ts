import type { Client } from 'pg';
import type { ManagedProcess } from './processes';
import type { ChaosRedis } from './redis';

export interface FaultLog {
  workerKills: number;
  redisRestarts: number;
  postgresTerminations: number;
  /** Connections pg_terminate_backend ended. */
  postgresConnectionsTerminated: number;
  timeline: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The faults of one run, spread over its duration: a worker process `kill -9`ed (and started again)
 * every few seconds, round robin over the callback/payment workers and the projectors; Redis lost
 * once at 40%; every PostgreSQL connection of the service terminated once at 60%.
 */
export async function injectFaults(options: {
  until: number;
  started: number;
  killEveryMs: number;
  workers: ManagedProcess[];
  redis: ChaosRedis;
  admin: Client;
  applicationName: string;
  log: (line: string) => void;
}): Promise<FaultLog> {
  const faults: FaultLog = { workerKills: 0, redisRestarts: 0, postgresTerminations: 0, postgresConnectionsTerminated: 0, timeline: [] };
  const note = (line: string) => {
    const entry = `+${((Date.now() - options.started) / 1000).toFixed(1)}s ${line}`;
    faults.timeline.push(entry);
    options.log(entry);
  };
  const duration = options.until - options.started;
  const redisAt = options.started + duration * 0.4;
  const postgresAt = options.started + duration * 0.6;
  let next = options.started + options.killEveryMs;
  let victim = 0;
  while (Date.now() < options.until) {
    await sleep(100);
    const now = Date.now();
    if (faults.redisRestarts === 0 && now >= redisAt) {
      await options.redis.lose();
      faults.redisRestarts += 1;
      note(options.redis.faultDescription);
    }
    if (faults.postgresTerminations === 0 && now >= postgresAt) {
      const rows = await options.admin.query<{ terminated: boolean }>(
        `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
        [options.applicationName],
      );
      faults.postgresTerminations += 1;
      faults.postgresConnectionsTerminated = rows.rows.filter((row) => row.terminated).length;
      note(`pg_terminate_backend: ${faults.postgresConnectionsTerminated} connections of the service terminated`);
    }
    // Only a process that finished starting is killed: on a loaded machine a restart can take longer
    // than the interval, and killing processes still booting would only starve the service of them.
    const worker = now >= next ? [...options.workers.slice(victim), ...options.workers].find((w) => w.printedSinceStart('worker ready')) : undefined;
    if (worker) {
      victim = (options.workers.indexOf(worker) + 1) % options.workers.length;
      await worker.kill();
      faults.workerKills += 1;
      note(`kill -9 ${worker.name}`);
      await sleep(300);
      worker.start();
      next = Date.now() + options.killEveryMs * (0.75 + Math.random() * 0.5);
    }
  }
  return faults;
}
