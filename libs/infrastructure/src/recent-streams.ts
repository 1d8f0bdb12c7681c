import { type AppendOptions, type AppendRequest, type AppendResult, type EventStore, type ExpectedRevision, ForwardingEventStore, type NewEvent } from '@app/event-store';
import { aroundRun } from './around-run';
import type { CommandRunner } from './command-runner';
import type { KnownStream } from './known-stream';

/**
 * The states this process's own appends left, most recent first, bounded. A command on a stream
 * written here moments ago (an escrow's releases after its create and payment) decides on it and
 * appends at its head instead of reading the history again (decidingOnRecentStreams); when another
 * process or replica wrote the stream since, that append is refused at the stale revision and the
 * command is decided again on the history read, so a stale entry costs a round trip and never a wrong
 * decision. A stream is decided by one decider only (libs/domain's stream ids), so its state is that
 * decider's.
 */
export class RecentStreams extends ForwardingEventStore {
  private readonly entries = new Map<string, KnownStream<unknown>>();

  constructor(
    store: EventStore,
    private readonly capacity: number,
  ) {
    super(store);
  }

  recall<State>(streamId: string): KnownStream<State> | undefined {
    return this.entries.get(streamId) as KnownStream<State> | undefined;
  }

  override async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    let appended: AppendResult;
    try {
      appended = await this.store.append(streamId, events, expected, options);
    } catch (error) {
      this.entries.delete(streamId);
      throw error;
    }
    const folded = options?.folded;
    // Under `any` the state may lack another writer's events; without the first event's time the view could not be written inline.
    const startedAt = folded?.startedAt ?? (expected === 'no_stream' ? appended.events[0].recordedAt : undefined);
    if (!folded || !startedAt || expected === 'any') {
      this.entries.delete(streamId);
      return appended;
    }
    const last = appended.events[appended.events.length - 1];
    this.entries.delete(streamId);
    this.entries.set(streamId, { state: folded.state, head: { revision: appended.nextRevision, hash: last.hash }, startedAt });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return appended;
  }

  /** An append across streams is decided on what the caller read (CommandRunner.decideAcross): the states it leaves are not kept. */
  override async appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    for (const { streamId } of requests) this.entries.delete(streamId);
    return this.store.appendMany(requests);
  }
}

/** The runner deciding a command the caller knows nothing of its stream on what this process last wrote to that stream. */
export function decidingOnRecentStreams(runner: CommandRunner, recent: RecentStreams): CommandRunner {
  return aroundRun(runner, (streamId, decider, command, metadata, known, conditions) => runner.run(streamId, decider, command, metadata, known ?? recent.recall(streamId), conditions));
}
