import type { EventStore } from '@app/event-store';
import { allHints, foldedStateHints, sealingHints } from './append-hints';
import { CommandRunner } from './command-runner';
import { countedAppends } from './counted-appends';
import type { Metrics } from './metrics';
import { oneCommandPerStream } from './one-command-per-stream';
import type { ProjectedReads } from './projected-reads';
import { readYourWrites } from './read-your-writes';
import { decidingOnRecentStreams, RecentStreams } from './recent-streams';
import { SealingEventStore } from './sealing-event-store';

/** Streams whose last state a process keeps (RecentStreams): an escrow's is a few KiB. */
const RECENT_STREAMS = 10_000;

/** What a process's edge composes around the runner (the API replays keyed requests there: idempotency/keyed-replay.ts). */
export type CommandEdge = (runner: CommandRunner, store: EventStore) => CommandRunner;

/** The token of the runner for work nobody waits on (callback dispatch and attempts). */
export const BACKGROUND_RUNNER = Symbol('BACKGROUND_RUNNER');

export interface CommandRunners {
  /** For a caller waiting for the answer (an HTTP request, the CLI, the payment work): provided as CommandRunner. */
  answering: CommandRunner;
  /** For work nobody waits on, which would otherwise hold its lane until the projector catches up (BACKGROUND_RUNNER). */
  background: CommandRunner;
}

/**
 * The command runner as a process uses it: the small core (CommandRunner) with each other concern a
 * piece of its own. The core appends through the store sealed into hash chains (SealingEventStore)
 * and remembered (RecentStreams), telling them what it decided on so they read nothing back: the hash
 * the sealing chains to, the state the events leave, which RecentStreams keeps and an adapter's inline
 * view writes (append-hints.ts). Around the core, innermost first:
 */
export function composeCommandRunners(store: EventStore, reads: ProjectedReads, metrics: Metrics, edge?: CommandEdge): CommandRunners {
  const recent = new RecentStreams(new SealingEventStore(store), RECENT_STREAMS);
  let runner = new CommandRunner(recent, allHints(sealingHints, foldedStateHints));
  // a command on a stream this process just wrote decides on what that append left, without reading;
  runner = decidingOnRecentStreams(runner, recent);
  // this process's commands on one stream run one at a time, the recall above included;
  runner = oneCommandPerStream(runner);
  // the events appended are counted;
  runner = countedAppends(runner, metrics);
  // the edge's own pieces (a keyed request already applied answers as it did, and is not counted again);
  if (edge) runner = edge(runner, store);
  // and an answer a caller waits for leaves once the read models include it.
  return { answering: readYourWrites(runner, reads), background: runner };
}
