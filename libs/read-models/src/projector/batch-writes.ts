import type { SqlExecutor } from '@app/database';
import type { BatchContext, ReadRow } from './projection';

interface Write {
  sql: string;
  params: readonly unknown[];
  /** Further writes over the rows this one returns (`written`, the name of its WITH item), without placeholders of their own. */
  followers?: (written: string) => readonly string[];
}

/** `$n` placeholders of a statement moved up by `by`: its parameters follow others' in a combined statement. */
export const shifted = (sql: string, by: number) => sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + by}`);

/**
 * A batch's writes that nothing reads back before it ends (a view's one upsert for the batch), sent
 * together in one statement with the batch's last one (the projector's checkpoint move): each round
 * trip to PostgreSQL costs more than the statement it carries. They become that statement's WITH
 * items, so each must be a single INSERT, UPDATE or DELETE without a WITH of its own, with no `$`
 * but its placeholders; and since the items see none of each other's changes, no two may touch the
 * same rows. A write may return its rows to followers (a view's companions), each a WITH item over them: they
 * are written only where the write wrote. Invariant checks (Projection.check) run after them; what they read (Projection.checkRead)
 * rides in the same statement, and so sees the batch's earlier statements' writes but not these.
 */
export class BatchWrites {
  private readonly writes: Write[] = [];
  private readonly reads: Write[] = [];
  private answers: ReadRow[][] = [];

  add(sql: string, params: readonly unknown[], followers?: Write['followers']): void {
    this.writes.push({ sql, params, followers });
  }

  /** A read (a SELECT, placeholders from $1) sent with the writes; its rows are `readRows(n)` once flushed, `n` the number answered here. */
  addRead(sql: string, params: readonly unknown[]): number {
    return this.reads.push({ sql, params }) - 1;
  }

  /** The rows of the `n`th read added, as JSON gives them (json_agg, as batch-reads.ts reads): undefined until flushed. */
  readRows(n: number): ReadRow[] | undefined {
    return this.answers[n];
  }

  /**
   * Sends the gathered writes and reads with `final` (a statement whose own placeholders are numbered from $1),
   * or alone, and answers `final`'s rows.
   */
  async flush<Row>(tx: SqlExecutor, final?: Write): Promise<Row[]> {
    const writes = this.writes.splice(0);
    const reads = this.reads.splice(0);
    if (writes.length === 0 && reads.length === 0) return final ? tx.query<Row>(final.sql, final.params) : [];
    const params: unknown[] = final ? [...final.params] : [];
    const items = writes.flatMap((write, i) => {
      const item = `write_${i} AS (${shifted(write.sql, params.length)})`;
      params.push(...write.params);
      return [item, ...(write.followers?.(`write_${i}`) ?? []).map((sql, j) => `write_${i}_${j} AS (${sql})`)];
    });
    if (reads.length === 0) return tx.query<Row>(`WITH ${items.join(', ')} ${final ? final.sql : 'SELECT 1'}`, params);
    const columns = reads.map((read, i) => {
      const column = `(SELECT coalesce(json_agg(read_rows), '[]'::json) FROM (${shifted(read.sql, params.length)}) AS read_rows) AS read_${i}`;
      params.push(...read.params);
      return column;
    });
    if (final) items.push(`final AS (${final.sql})`);
    if (final) columns.unshift(`(SELECT coalesce(json_agg(final), '[]'::json) FROM final) AS final`);
    const [answer] = await tx.query<Record<string, ReadRow[]>>(`${items.length > 0 ? `WITH ${items.join(', ')} ` : ''}SELECT ${columns.join(', ')}`, params);
    this.answers = reads.map((_, i) => answer[`read_${i}`]);
    return final ? (answer.final as Row[]) : [];
  }
}

/**
 * A write nothing in the batch reads back (with its `followers`, BatchWrites.add): gathered for the batch's last
 * statement where it has one, sent at once otherwise.
 */
export async function writeLast(tx: SqlExecutor, context: BatchContext, sql: string, params: readonly unknown[], followers?: (written: string) => readonly string[]): Promise<void> {
  if (context.last) context.last.add(sql, params, followers);
  else if (followers) await tx.query(`WITH written AS (${sql})${followers('written').map((follower, i) => `, follower_${i} AS (${follower})`).join('')} SELECT 1`, params);
  else await tx.query(sql, params);
}
