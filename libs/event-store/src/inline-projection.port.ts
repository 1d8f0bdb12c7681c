/**
 * A projection the PostgreSQL store writes in the append's own statement, so its rows commit (or
 * not) with the events, group commit included. It lives with the read models; the store only knows
 * this port.
 */
export interface InlineProjection {
  /** The stream's row once the writer's state applies, without its `revision` (the statement sets it); undefined when it keeps none for the stream. */
  row(streamId: string, state: unknown, times: { createdAt: Date; updatedAt: Date }): Record<string, unknown> | undefined;
  /**
   * A data-modifying statement for a WITH clause, upserting the rows `source` yields: a FROM item
   * with one jsonb column `row` per stream whose head moved, its `revision` included.
   */
  upsert(source: string): string;
  /**
   * Further data-modifying statements for the WITH clause over `written`, the rows `upsert` wrote (it
   * returns them), so that what follows from a row is written only where the row moved on.
   */
  companions?(written: string): readonly string[];
}
