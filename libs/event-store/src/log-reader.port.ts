import type { LogPosition, RecordedEvent } from './event-store.port';

export interface LogFilter {
  after?: LogPosition;
  limit: number;
  types?: string[];
  streamId?: string;
  /** The streams a merchant owns: its own, its orders', escrows' and callback deliveries'. */
  merchantId?: string;
  from?: Date;
  to?: Date;
}

/** Where a stream's head names an event that is gone: its last events were removed. */
export interface TruncatedStream {
  streamId: string;
  revision: bigint;
}

/**
 * The log as finance staff and operators read it (the audit API, the CLI, the integrity check):
 * filtered pages in log order, single streams, a walk over every stream, and counts. The events
 * are as stored, never reshaped: what an auditor sees is what the hash chain covers.
 */
export interface LogReader {
  page(filter: LogFilter): Promise<RecordedEvent[]>;
  /** One stream's history, up to an instant when given. */
  stream(streamId: string, asOf?: Date): Promise<RecordedEvent[]>;
  /** Events ordered by stream and revision, after a (stream, revision) cursor. */
  walk(after: { streamId: string; revision: bigint }, limit: number): Promise<RecordedEvent[]>;
  /** The first stream from `from` (inclusive) to `to` (exclusive, none: the end) whose last events were removed; undefined where the store keeps no stream heads. */
  truncatedStream(from: string, to: string | null): Promise<TruncatedStream | undefined>;
  /** How many events the log holds (a progress bar's total). */
  count(): Promise<number>;
}

export const LOG_READER = Symbol('LOG_READER');
