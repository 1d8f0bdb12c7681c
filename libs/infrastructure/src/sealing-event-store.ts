import { eventHash, GENESIS_HASH } from '@app/audit';
import { type AppendOptions, type AppendRequest, type AppendResult, type ExpectedRevision, ForwardingEventStore, type NewEvent } from '@app/event-store';

/**
 * Seals what is appended into its stream's hash chain (libs/audit): each event's hash covers its
 * stream, revision, type, data, metadata and recorded time, and the hash of the event before it. The
 * time is fixed here because the hash covers it; every adapter stores both as given. The writer names
 * the hash of the stream's last event (`lastHash`) when it holds it; otherwise it is read here.
 */
export class SealingEventStore extends ForwardingEventStore {
  override async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    return this.store.append(streamId, await this.sealed(streamId, events, expected, options?.lastHash, new Date()), expected, options);
  }

  /** Each stream's events sealed into its own chain, at one time for all. */
  override async appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    const recordedAt = new Date();
    const sealed = await Promise.all(requests.map(async (r) => ({ ...r, events: await this.sealed(r.streamId, r.events, r.expected, r.options?.lastHash, recordedAt) })));
    return this.store.appendMany(sealed);
  }

  private async sealed(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision, lastHash: string | undefined, recordedAt: Date): Promise<NewEvent[]> {
    const last = await this.lastLink(streamId, expected, lastHash);
    let previousHash = last.hash;
    let revision = last.revision;
    return events.map((event): NewEvent => {
      revision += 1n;
      const metadata = event.metadata ?? {};
      const hash = eventHash({ streamId, revision, type: event.type, data: event.data, metadata, recordedAt }, previousHash);
      previousHash = hash;
      // Named field by field (NewEvent's), not `{ ...event, recordedAt, hash }`: on Node 20 fields a literal writes
      // after a spread cost about 1.7 µs here (made anew each time), against 0.01 µs for this literal, with less garbage.
      const sealed: NewEvent = { type: event.type, data: event.data, metadata, recordedAt, hash };
      if (event.id !== undefined) sealed.id = event.id;
      return sealed;
    });
  }

  /** The revision and hash the first new event follows. Should the stream have moved on, the append is refused anyway. */
  private async lastLink(streamId: string, expected: ExpectedRevision, lastHash: string | undefined): Promise<{ revision: bigint; hash: string }> {
    if (expected === 'no_stream') return { revision: -1n, hash: GENESIS_HASH };
    if (expected !== 'any' && lastHash !== undefined) return { revision: expected, hash: lastHash };
    // The last event alone, when it is the one expected; otherwise the one expected, which may have become the last by the time the append lands.
    const tail = await this.store.readLastEvent(streamId);
    const last = expected === 'any' || tail?.revision === expected ? tail : (await this.store.readStream(streamId))[Number(expected)];
    return last ? { revision: last.revision, hash: last.hash ?? GENESIS_HASH } : { revision: -1n, hash: GENESIS_HASH };
  }
}
