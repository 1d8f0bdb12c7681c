import { aroundRun } from './around-run';
import type { CommandRunner } from './command-runner';
import { KeyedQueue } from './keyed-queue';

/**
 * The runner with this process's commands on one stream run one at a time (as Emmett's and Marten's
 * users queue them): concurrent requests on one escrow then no longer race each other's appends, so
 * none of them runs out of attempts (CONCURRENT_MODIFICATION) while its own siblings were busy. The
 * runner's revision check still answers for writers in other processes; streams run side by side.
 * Decisions across streams on one lane (payouts and transfers at a merchant's books) take turns too:
 * without it, twenty transfers racing one payout in one process ran out of attempts against each other.
 */
export function oneCommandPerStream(runner: CommandRunner): CommandRunner {
  const queue = new KeyedQueue();
  return aroundRun(
    runner,
    (streamId, decider, command, metadata, known, conditions) => queue.run(streamId, () => runner.run(streamId, decider, command, metadata, known, conditions)),
    (decide, metadata, lane) => (lane === undefined ? runner.decideAcross(decide, metadata) : queue.run(lane, () => runner.decideAcross(decide, metadata, lane))),
  );
}
