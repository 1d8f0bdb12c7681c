import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './processes';

/** One kill of the primary, as scripts/ha.js timed it (epoch ms) and the ports before and after. */
export interface FailoverTimes {
  from: number;
  to: number;
  /** The first kill's: a kill the monitor answered with no promotion is repeated once the pair settles again. */
  killedAt: number;
  /** Kills after which the monitor promoted no node, each followed by starting the killed node again (scripts/ha.js). */
  killsWithoutPromotion: number;
  /** When the standby was first seen out of recovery (polled every 100 ms or so). */
  promotedAt: number;
  /** When the killed node was streaming again as the new primary's synchronous standby. */
  rejoinedAt: number;
}

/** A pg_auto_failover monitor and two nodes on local ports: scripts/ha.js's haCluster(). */
export interface HaCluster {
  /** The multi-host URL with target_session_attrs=read-write. */
  databaseUrl: string;
  /** Starts what is not running (creating the cluster the first time); resolves once the standby is synchronous. */
  up(): Promise<string>;
  failover(): Promise<FailoverTimes>;
  /** Stops the cluster and removes its data. */
  down(): Promise<void>;
}

export interface HaClusterOptions {
  /** Where its data lives; the nodes' PostgreSQL runs as `postgres` when this process is root, so not under a directory only root may enter. */
  dir: string;
  /** The monitor's port; the nodes take the next two. */
  monitorPort: number;
  log: (line: string) => void;
}

/**
 * The cluster `npm run ha` manages, driven from here: scripts/ha.js is plain Node (the script runs
 * unbuilt), loaded by its path from the sources and from the build alike.
 */
export function haCluster(options: HaClusterOptions): HaCluster {
  const script = createRequire(__filename)(join(ROOT, 'scripts', 'ha.js')) as { haCluster(options: HaClusterOptions): HaCluster };
  return script.haCluster(options);
}
