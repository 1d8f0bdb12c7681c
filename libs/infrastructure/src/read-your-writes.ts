import { aroundRun } from './around-run';
import type { CommandRunner } from './command-runner';
import type { ProjectedReads } from './projected-reads';

/**
 * Read-your-writes, bounded (ProjectedReads.reach): the command answers once the read models include
 * its events. An append that wrote its stream's own view in its transaction (inline, on PostgreSQL)
 * owes no wait: that view shows it already, and the routes that read the projector's views wait for
 * the log's head themselves (ProjectedReads.current). Composed outside the stream's lane
 * (oneCommandPerStream), so a wait never holds up the stream's next command.
 */
export function readYourWrites(runner: CommandRunner, reads: ProjectedReads): CommandRunner {
  return aroundRun(
    runner,
    async (streamId, decider, command, metadata, known, conditions) => {
      const outcome = await runner.run(streamId, decider, command, metadata, known, conditions);
      if (outcome.position && !outcome.viewWritten) await reads.reach(outcome.position, metadata.correlationId);
      return outcome;
    },
    async (decide, metadata, lane) => {
      const outcome = await runner.decideAcross(decide, metadata, lane);
      if (outcome.position) await reads.reach(outcome.position, metadata.correlationId);
      return outcome;
    },
  );
}
