import { hash } from 'node:crypto';
import { canonicalJson } from '@app/domain';

/** The "previous hash" of a stream's first event. */
export const GENESIS_HASH = '0'.repeat(64);

export interface ChainedEvent {
  streamId: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  recordedAt: Date;
}

/**
 * SHA-256 over the canonical JSON of everything that makes the event what it is, and the hash of the
 * event before it in the stream: editing any of them, or removing an event, breaks every link after.
 */
export function eventHash(event: ChainedEvent, previousHash: string): string {
  const text = canonicalJson({
    streamId: event.streamId,
    revision: event.revision.toString(),
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    recordedAt: event.recordedAt.toISOString(),
    previousHash,
  });
  // The one-shot digest: about a third of createHash's cost for a text this short, and every append seals each event with it.
  return hash('sha256', text, 'hex');
}


export interface ChainBreak {
  streamId: string;
  revision: string;
  /** An edited event; an event without a hash; a removed event; events removed from a stream's end. */
  reason: 'hash_mismatch' | 'missing_hash' | 'revision_gap' | 'truncated';
}
