import type { LogPosition, RecordedEvent } from './event-store.port';

/**
 * The subscriptions of one process that ask for the same part of the log at the same moment share
 * one read. A worker follows the log twice (its callback dispatcher and its payment work): both are
 * woken by the same append and, caught up, read from the same position, so each append was read,
 * sent and decoded twice.
 *
 * A read is shared only within the append generation it started in: a subscription woken by a later
 * append must see that append, which a read sent before it was told of may have missed. Each caller
 * gets an array of its own; the events themselves are shared, as readers never change them.
 */
export class SharedLogReads {
  private readonly inFlight = new Map<string, Promise<RecordedEvent[]>>();

  /** `generation` changes with every append this process is told of (LocalAppendSignal.generation). */
  constructor(private readonly generation: () => number) {}

  /**
   * `read`'s answer, or that of the same read in flight: `after` and `limit` say where and how much,
   * `kind` how the events come (a subscription's quiet types come without their contents).
   */
  async readAll(after: LogPosition, limit: number, kind: string, read: () => Promise<RecordedEvent[]>): Promise<RecordedEvent[]> {
    const key = `${this.generation()}:${after.commit}:${after.prepare}:${limit}:${kind}`;
    let answer = this.inFlight.get(key);
    if (answer === undefined) {
      answer = read();
      this.inFlight.set(key, answer);
      const forget = () => this.inFlight.delete(key);
      answer.then(forget, forget);
    }
    return [...(await answer)];
  }
}
