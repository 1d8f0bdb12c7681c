import type { StreamHead } from './command-runner';

/** What a process last wrote to a stream: enough to decide the next command without reading it. */
export interface RecentStream {
  /** The decider whose state this is (a stream is only ever decided by one, but the cache does not rely on it). */
  decider: object;
  state: unknown;
  head: StreamHead;
  /** When the stream's first event was recorded: the inline view's creation time. */
  startedAt: Date;
}

/**
 * The states this process's own appends left, most recent first, bounded. A command on a stream
 * written here moments ago (an escrow's releases after its create and payment) decides on it and
 * appends at its head instead of reading the history again; when another process or replica wrote
 * the stream since, that append is refused at the stale revision and the command is decided again on
 * the history read, so a stale entry costs a round trip and never a wrong decision.
 */
export class RecentStreams {
  private readonly entries = new Map<string, RecentStream>();

  constructor(private readonly capacity: number) {}

  get(streamId: string, decider: object): RecentStream | undefined {
    const entry = this.entries.get(streamId);
    return entry?.decider === decider ? entry : undefined;
  }

  remember(streamId: string, entry: RecentStream): void {
    this.entries.delete(streamId);
    this.entries.set(streamId, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(streamId: string): void {
    this.entries.delete(streamId);
  }
}
