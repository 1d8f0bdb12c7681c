import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import { shifted } from './batch-writes';
import type { BatchContext, BatchRead, Projection, ReadRow } from './projection';

/**
 * The reads the projections need before they write a batch (Projection.readBefore), in one statement:
 * each round trip to PostgreSQL costs more than the short read it carries. Each read is a column of
 * the statement's one row, its rows as a JSON array (json_agg), so every answer reads the same
 * whether it went alone or with others: a value as JSON writes it (cast what must keep its exact
 * form, a bigint, to text). Answers the rows of each projection's read, undefined where it had none.
 * Optional reads (BatchRead.optional) alone are not made: each is answered with no rows.
 */
export async function readBeforeWrites(
  tx: SqlExecutor,
  projections: readonly Projection[],
  events: readonly RecordedEvent[],
  context: BatchContext,
): Promise<(ReadRow[] | undefined)[]> {
  const reads = projections.map((projection) => projection.readBefore?.(events, context));
  if (reads.every((read) => !read || read.optional)) return reads.map((read) => (read ? [] : undefined));
  const params: unknown[] = [];
  const columns: string[] = [];
  for (const read of reads) {
    if (!read) continue;
    columns.push(`(SELECT coalesce(json_agg(read_rows), '[]'::json) FROM (${shifted(read.sql, params.length)}) AS read_rows) AS read_${columns.length}`);
    params.push(...read.params);
  }
  if (columns.length === 0) return reads.map(() => undefined);
  const [answers] = await tx.query<Record<string, ReadRow[]>>(`SELECT ${columns.join(', ')}`, params);
  let next = 0;
  return reads.map((read) => (read ? answers[`read_${next++}`] : undefined));
}

/** A projection's read (`ask`): as read before the batch's writes where the projector did, else now (a rebuild applying the batch). */
export async function readFor(tx: Pick<SqlExecutor, 'query'>, context: BatchContext, ask: () => BatchRead | undefined): Promise<ReadRow[]> {
  if (context.read) return context.read;
  const read = ask();
  if (!read) return [];
  const [answer] = await tx.query<{ rows: ReadRow[] }>(`SELECT coalesce(json_agg(read_rows), '[]'::json) AS rows FROM (${read.sql}) AS read_rows`, read.params);
  return answer.rows;
}

/**
 * FROM items for the rows of `table` whose `key` is among a JSON array of keys ($1): `k.key`, and the
 * row's `columns` as `v`; a key without a row has no line. The keys come as JSON, not as a text[]
 * compared with `= ANY($1)`: the custom plan of that counts the array's elements, the generic plan
 * guesses, so the custom plan always looks cheaper and the statement was planned again on every
 * call (pg_prepared_statements: no generic plan). The planner counts a JSON array's elements in
 * neither, so after its first few calls the statement keeps one generic plan. The lookup is a
 * LATERAL subquery behind OFFSET 0 so that plan stays an index probe per key (as readStreams in
 * libs/event-store/src/postgres/postgres-event-store.ts does).
 */
export function keyedLookup(table: string, key: string, columns: string): string {
  return `jsonb_array_elements_text($1::jsonb) AS k(key) CROSS JOIN LATERAL (SELECT ${columns} FROM ${table} WHERE ${key} = k.key OFFSET 0) AS v`;
}
