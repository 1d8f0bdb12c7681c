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

  constructor(
    private readonly read: (after: LogPosition, limit: number) => Promise<RecordedEvent[]>,
    /** Changes with every append this process is told of (LocalAppendSignal.generation). */
    private readonly generation: () => number,
  ) {}

  async readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
    const key = `${this.generation()}:${after.commit}:${after.prepare}:${limit}`;
    let read = this.inFlight.get(key);
    if (read === undefined) {
      read = this.read(after, limit);
      this.inFlight.set(key, read);
      const forget = () => this.inFlight.delete(key);
      read.then(forget, forget);
    }
    return [...(await read)];
  }
}
