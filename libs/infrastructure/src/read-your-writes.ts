import { AsyncLocalStorage } from 'node:async_hooks';
import { aroundRun, type CommandRunner } from './command-runner';
import type { ProjectedReads } from './projected-reads';

const waiting = new AsyncLocalStorage<true>();

/**
 * Runs the work of a caller waiting for its answer (an HTTP request, a CLI command): each command it
 * runs answers once the read models include it. Work nobody waits on (callback attempts, the payment
 * work) runs outside, rather than hold its stream's lane until the projector catches up.
 */
export function forWaitingCaller<T>(work: () => T): T {
  return waiting.run(true, work);
}

/**
 * Read-your-writes, bounded (ProjectedReads.reach): a waiting caller's command answers once the read
 * models include its events. An append that wrote its stream's own view in its transaction (inline, on
 * PostgreSQL) owes no wait: that view shows it already, and the routes that read the projector's
 * views wait for the log's head themselves (ProjectedReads.current). Composed outside the stream's
 * lane (oneCommandPerStream), so a wait never holds up the stream's next command.
 */
export function readYourWrites(runner: CommandRunner, reads: ProjectedReads): CommandRunner {
  return aroundRun(runner, async (streamId, decider, command, metadata, known) => {
    const outcome = await runner.run(streamId, decider, command, metadata, known);
    if (outcome.position && !outcome.viewWritten && waiting.getStore()) await reads.reach(outcome.position, metadata.correlationId);
    return outcome;
  });
}
