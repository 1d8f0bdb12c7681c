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
    // A stream whose first event is in this batch has no row yet: only the others are read.
    const ids = [...groups]
      .filter(([, streamEvents]) => streamEvents[0].revision > 0n)
      .map(([streamId]) => streamId.slice(spec.streamPrefix.length));
    const existing =
      ids.length === 0
        ? []
        : await tx.query<{ id: string; state: State; created_at: Date }>(
            `SELECT ${spec.idColumn} AS id, state, created_at FROM ${spec.table} WHERE ${spec.idColumn} = ANY($1::text[])`,
            [ids],
          );
    const known = new Map(existing.map((row) => [row.id, row]));
    const rows = [...groups].map(([streamId, streamEvents]) => {
      const id = streamId.slice(spec.streamPrefix.length);
      const before = known.get(id);
      const state = streamEvents.reduce(spec.evolve, before?.state ?? spec.initialState());
      return {
        ...spec.columns(state),
        [spec.idColumn]: id,
        state,
        created_at: before?.created_at ?? streamEvents[0].recordedAt,
        updated_at: streamEvents[streamEvents.length - 1].recordedAt,
      };
    });
    // One statement for the whole batch (the table's own row type reads the JSON): the projector's
    // round trips per batch stay constant however many streams it touched.
    const names = Object.keys(rows[0]);
    await tx.query(
      `INSERT INTO ${spec.table} (${names.join(', ')})
       SELECT ${names.join(', ')} FROM jsonb_populate_recordset(NULL::${spec.table}, $1::jsonb)
       ON CONFLICT (${spec.idColumn}) DO UPDATE SET
         ${names.filter((n) => n !== spec.idColumn && n !== 'created_at').map((n) => `${n} = EXCLUDED.${n}`).join(', ')}`,
      [JSON.stringify(rows)],
    );
  }
}
