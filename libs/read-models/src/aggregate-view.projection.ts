import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import { byStream, type Projection } from './projection';

export interface AggregateViewSpec<State> {
  name: string;
  table: string;
  idColumn: string;
  streamPrefix: string;
  eventTypes: ReadonlySet<string>;
  initialState: () => State;
  evolve: (state: State, event: { type: string; data: unknown }) => State;
  /** Columns besides id, state, created_at and updated_at, derived from the folded state. */
  columns: (state: State) => Record<string, unknown>;
}

/**
 * A view that is the domain's own fold of a stream: the stored state is exactly what the decider
 * would rebuild from the events, so the read model cannot drift from the rules.
 */
export class AggregateViewProjection<State> implements Projection {
  readonly name: string;
  readonly tables: readonly string[];

  constructor(private readonly spec: AggregateViewSpec<State>) {
    this.name = spec.name;
    this.tables = [spec.table];
  }

  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]): Promise<void> {
    const { spec } = this;
    const groups = byStream(events, (e) => spec.eventTypes.has(e.type) && e.streamId.startsWith(spec.streamPrefix));
    if (groups.size === 0) return;
    const ids = [...groups.keys()].map((streamId) => streamId.slice(spec.streamPrefix.length));
    const existing = await tx.query<{ id: string; state: State; created_at: Date }>(
      `SELECT ${spec.idColumn} AS id, state, created_at FROM ${spec.table} WHERE ${spec.idColumn} = ANY($1::text[])`,
      [ids],
    );
    const known = new Map(existing.map((row) => [row.id, row]));
    for (const [streamId, streamEvents] of groups) {
      const id = streamId.slice(spec.streamPrefix.length);
      const before = known.get(id);
      const state = streamEvents.reduce(spec.evolve, before?.state ?? spec.initialState());
      const createdAt = before?.created_at ?? streamEvents[0].recordedAt;
      const updatedAt = streamEvents[streamEvents.length - 1].recordedAt;
      const columns = spec.columns(state);
      const names = Object.keys(columns);
      const values = names.map((n) => columns[n]);
      const placeholders = names.map((_, i) => `$${i + 5}`);
      await tx.query(
        `INSERT INTO ${spec.table} (${spec.idColumn}, state, created_at, updated_at, ${names.join(', ')})
         VALUES ($1, $2::jsonb, $3, $4, ${placeholders.join(', ')})
         ON CONFLICT (${spec.idColumn}) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at,
           ${names.map((n) => `${n} = EXCLUDED.${n}`).join(', ')}`,
        [id, JSON.stringify(state), createdAt, updatedAt, ...values],
      );
    }
  }
}
