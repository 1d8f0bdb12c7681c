import { eventHash, GENESIS_HASH } from '@app/audit';
import { type AppendOptions, type AppendResult, type ExpectedRevision, ForwardingEventStore, type NewEvent } from '@app/event-store';

/**
 * Seals what is appended into its stream's hash chain (libs/audit): each event's hash covers its
 * stream, revision, type, data, metadata and recorded time, and the hash of the event before it. The
 * time is fixed here because the hash covers it; every adapter stores both as given. The writer names
 * the hash of the stream's last event (`lastHash`) when it holds it; otherwise it is read here.
 */
export class SealingEventStore extends ForwardingEventStore {
  override async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    const last = await this.lastLink(streamId, expected, options?.lastHash);
    const recordedAt = new Date();
    let previousHash = last.hash;
    let revision = last.revision;
    const sealed = events.map((event): NewEvent => {
      revision += 1n;
      const metadata = event.metadata ?? {};
      const hash = eventHash({ streamId, revision, type: event.type, data: event.data, metadata, recordedAt }, previousHash);
      previousHash = hash;
      return { ...event, metadata, recordedAt, hash };
    });
    return this.store.append(streamId, sealed, expected, options);
  }

  /** The revision and hash the first new event follows. Should the stream have moved on, the append is refused anyway. */
  private async lastLink(streamId: string, expected: ExpectedRevision, lastHash: string | undefined): Promise<{ revision: bigint; hash: string }> {
    if (expected === 'no_stream') return { revision: -1n, hash: GENESIS_HASH };
    if (expected !== 'any' && lastHash !== undefined) return { revision: expected, hash: lastHash };
    const history = await this.store.readStream(streamId);
    const last = expected === 'any' ? history[history.length - 1] : history[Number(expected)];
    return last ? { revision: last.revision, hash: last.hash ?? GENESIS_HASH } : { revision: -1n, hash: GENESIS_HASH };
  }
}
