import type { SqlExecutor } from '@app/database';
import type { BatchContext } from './projection';

interface Write {
  sql: string;
  params: readonly unknown[];
}

/** `$n` placeholders of a statement moved up by `by`: its parameters follow others' in a combined statement. */
export const shifted = (sql: string, by: number) => sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + by}`);

/**
 * A batch's writes that nothing reads back before it ends (a view's one upsert for the batch), sent
 * together in one statement with the batch's last one (the projector's checkpoint move): each round
 * trip to PostgreSQL costs more than the statement it carries. They become that statement's WITH
 * items, so each must be a single INSERT, UPDATE or DELETE without a WITH of its own, with no `$`
 * but its placeholders; and since the items see none of each other's changes, no two may touch the
 * same rows. Invariant checks (Projection.check) run after them.
 */
export class BatchWrites {
  private readonly writes: Write[] = [];

  add(sql: string, params: readonly unknown[]): void {
    this.writes.push({ sql, params });
  }

  /**
   * Sends the gathered writes with `final` (a statement whose own placeholders are numbered from $1),
   * or alone, and answers `final`'s rows.
   */
  async flush<Row>(tx: SqlExecutor, final?: Write): Promise<Row[]> {
    const writes = this.writes.splice(0);
    if (writes.length === 0) return final ? tx.query<Row>(final.sql, final.params) : [];
    const params: unknown[] = final ? [...final.params] : [];
    const items = writes.map((write, i) => {
      const item = `write_${i} AS (${shifted(write.sql, params.length)})`;
      params.push(...write.params);
      return item;
    });
    return tx.query<Row>(`WITH ${items.join(', ')} ${final ? final.sql : 'SELECT 1'}`, params);
  }
}

/** A write nothing in the batch reads back: gathered for the batch's last statement where it has one, sent at once otherwise. */
export async function writeLast(tx: SqlExecutor, context: BatchContext, sql: string, params: readonly unknown[]): Promise<void> {
  if (context.last) context.last.add(sql, params);
  else await tx.query(sql, params);
}
