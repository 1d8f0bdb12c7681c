import { aroundRun } from './around-run';
import type { CommandRunner } from './command-runner';
import type { Metrics } from './metrics';

/** The runner counting the events its commands append, by type (`events_appended_total`). */
export function countedAppends(runner: CommandRunner, metrics: Metrics): CommandRunner {
  return aroundRun(
    runner,
    async (streamId, decider, command, metadata, known, conditions) => {
      const outcome = await runner.run(streamId, decider, command, metadata, known, conditions);
      for (const event of outcome.events) metrics.eventsAppended.inc({ type: event.type });
      return outcome;
    },
    async (decide, metadata, lane) => {
      const outcome = await runner.decideAcross(decide, metadata, lane);
      for (const { event } of outcome.events) metrics.eventsAppended.inc({ type: event.type });
      return outcome;
    },
  );
}
