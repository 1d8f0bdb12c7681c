import { randomUUID } from 'node:crypto';
import type { EventMetadata, ExpectedRevision, LogPosition, NewEvent, RecordedEvent } from '../event-store.port';

/** What the adapter stores in KurrentDB's own metadata beside ours: the sealed time and hash-chain link. */
const RECORDED_AT = '$recordedAt';
const HASH = '$hash';
/** Our metadata as one JSON string, where KurrentDB takes string values only (its multi-stream append). */
const JSON_METADATA = '$metadata';

/** The shape of KurrentDB's recorded events, as far as the adapter reads them. */
export interface KurrentRecorded {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  created: Date;
  data: unknown;
  metadata: unknown;
  position?: { commit: bigint; prepare: bigint };
}

export interface KurrentEventData {
  id: string;
  contentType: 'application/json';
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export type KurrentStreamState = 'any' | 'no_stream' | bigint;

/** Our expected revision is KurrentDB's stream state: `any`, `no_stream`, or the last event's revision. */
export function toStreamState(expected: ExpectedRevision): KurrentStreamState {
  return expected;
}

export function toEventData(event: NewEvent): KurrentEventData {
  return {
    id: event.id ?? randomUUID(),
    contentType: 'application/json',
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: {
      ...(event.metadata ?? {}),
      ...(event.recordedAt ? { [RECORDED_AT]: event.recordedAt.toISOString() } : {}),
      ...(event.hash ? { [HASH]: event.hash } : {}),
    },
  };
}

/** The same event for the multi-stream append, whose metadata values must all be strings: ours is carried as one JSON string. */
export function toMultiAppendData(event: NewEvent): KurrentEventData {
  const data = toEventData(event);
  const { [RECORDED_AT]: recordedAt, [HASH]: hash, ...ours } = data.metadata;
  return { ...data, metadata: { [JSON_METADATA]: JSON.stringify(ours), ...(recordedAt === undefined ? {} : { [RECORDED_AT]: recordedAt }), ...(hash === undefined ? {} : { [HASH]: hash }) } };
}

/** KurrentDB positions are the same (commit, prepare) pair the port orders by. */
export function fromKurrentPosition(position: { commit: bigint; prepare: bigint } | undefined): LogPosition {
  if (!position) throw new Error('KurrentDB returned an event without a position; read it from $all');
  return { commit: position.commit, prepare: position.prepare };
}

export function fromRecorded(event: KurrentRecorded, position?: LogPosition): RecordedEvent {
  const { [RECORDED_AT]: recordedAt, [HASH]: hash, [JSON_METADATA]: packed, ...plain } = (event.metadata ?? {}) as Record<string, unknown>;
  const metadata = typeof packed === 'string' ? (JSON.parse(packed) as Record<string, unknown>) : plain;
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    type: event.type,
    data: event.data,
    metadata: metadata as EventMetadata,
    recordedAt: typeof recordedAt === 'string' ? new Date(recordedAt) : event.created,
    position: position ?? fromKurrentPosition(event.position),
    ...(typeof hash === 'string' ? { hash } : {}),
  };
}

/** KurrentDB reports the actual state as a revision, or as the string 'no_stream'. */
export function actualRevision(actual: unknown): bigint | 'no_stream' {
  if (typeof actual === 'bigint') return actual;
  if (typeof actual === 'number') return BigInt(actual);
  return 'no_stream';
}
