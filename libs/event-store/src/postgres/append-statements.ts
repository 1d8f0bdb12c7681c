import type { InlineProjection } from '../inline-projection.port';
import { APPENDED_COLUMNS } from './event-rows';

/** Each statement yields the stream's new last revision, or no row when the expectation fails. */
export const HEAD = {
  no_stream: `INSERT INTO streams (stream_id, revision) VALUES ($1, $3::bigint - 1) ON CONFLICT DO NOTHING RETURNING revision`,
  any: `INSERT INTO streams (stream_id, revision) VALUES ($1, $3::bigint - 1)
        ON CONFLICT (stream_id) DO UPDATE SET revision = streams.revision + $3::bigint RETURNING revision`,
  exact: `UPDATE streams SET revision = revision + $3::bigint WHERE stream_id = $1 AND revision = $4::bigint RETURNING revision`,
};

/** Where an append announces itself: the channel, and the writing store's origin (a random id) as the payload. */
export interface AppendNotice {
  channel: string;
  origin: string;
}

/**
 * Followers in other processes learn of new events from a NOTIFY sent by the append itself (delivered
 * at commit, so never before the events are readable) rather than waiting for their next poll. It is
 * joined to the rows written, so an append whose expectation fails notifies no one. Its payload names
 * the store that wrote it, which has told its own subscriptions already (append-signal.ts).
 */
function signal(notice: AppendNotice | undefined): { cte: string; join: string } {
  return notice === undefined ? { cte: '', join: '' } : { cte: `, signal AS (SELECT pg_notify('${notice.channel}', '${notice.origin}'))`, join: ' CROSS JOIN signal' };
}

/**
 * The inline projection's rows ride in the append's statement, joined to the heads that moved: an
 * append whose expectation fails writes no row, and one that fails outright (a duplicate event id)
 * takes its rows down with its events. The revision comes from the head, not from the writer.
 */
function inlineRows(inline: InlineProjection | undefined, rows: string): string {
  if (inline === undefined) return '';
  const companions = inline.companions?.('inline_rows') ?? [];
  return `, inline_rows AS (${inline.upsert(rows)})${companions.map((sql, i) => `, inline_companion_${i} AS (${sql})`).join('')}`;
}

/**
 * One statement, so one round trip and one implicit transaction: the head moves only if the events
 * land. With an inline projection, its row for the stream is the parameter `inline.rowParam`.
 */
export function appendStatement(head: string, notice: AppendNotice | undefined, inline?: { projection: InlineProjection; rowParam: string }): string {
  const { cte, join } = signal(notice);
  const rows = inline && `(SELECT ${inline.rowParam}::jsonb || jsonb_build_object('revision', head.revision) AS row FROM head WHERE ${inline.rowParam}::jsonb IS NOT NULL) AS written`;
  return `
    WITH head AS (${head}),
    new_events AS (SELECT value AS ev, ordinality AS ord FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY)${cte}${inlineRows(inline?.projection, rows ?? '')}
    INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
    SELECT $1, head.revision - $3::bigint + new_events.ord, (ev->>'id')::uuid, ev->>'type', ev->'data', ev->'metadata',
      COALESCE((ev->>'recordedAt')::timestamptz, now()), ev->>'hash'
    FROM head CROSS JOIN new_events${join} ORDER BY new_events.ord
    RETURNING ${APPENDED_COLUMNS}`;
}

/**
 * Group commit: appends to distinct streams, one statement and so one transaction and one commit.
 * Each append's expectation is its own head statement's WHERE clause: one that fails just yields no
 * head row, and writes nothing, without touching its neighbours. Streams are distinct within a group,
 * so no two head statements meet the same row.
 *
 * An append's conditions (AppendOptions.conditions: streams it does not write, at the revisions its
 * decision read) are checked against the heads as the statement's snapshot has them, each a probe of
 * the streams key (a scalar subquery, so no plan turns it into a scan): one that fails puts its append
 * in `stale`, whose heads then do not move, so it writes nothing. What committed before the statement
 * began is in the snapshot; a change that commits while it runs is not seen, and the append stands as
 * made before that change, as one decided on a read a moment earlier would.
 */
export function appendGroupStatement(notice: AppendNotice | undefined, inline?: InlineProjection): string {
  const { cte, join } = signal(notice);
  const rows = `(SELECT input.inline_row || jsonb_build_object('revision', heads.revision) AS row
    FROM input JOIN heads ON heads.stream_id = input.stream WHERE input.inline_row IS NOT NULL) AS written`;
  return `
  WITH input AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(i int, stream text, mode text, expected bigint, count bigint, events jsonb, inline_row jsonb, conditions jsonb)
  ),
  stale AS (
    SELECT DISTINCT input.i FROM input CROSS JOIN LATERAL jsonb_to_recordset(input.conditions) AS c(stream text, revision bigint)
    WHERE (SELECT streams.revision FROM streams WHERE streams.stream_id = c.stream) IS DISTINCT FROM c.revision
  ),
  created AS (
    INSERT INTO streams (stream_id, revision) SELECT stream, count - 1 FROM input WHERE mode = 'no_stream' AND i NOT IN (SELECT i FROM stale)
    ON CONFLICT DO NOTHING RETURNING stream_id, revision
  ),
  upserted AS (
    INSERT INTO streams (stream_id, revision) SELECT stream, count - 1 FROM input WHERE mode = 'any' AND i NOT IN (SELECT i FROM stale)
    ON CONFLICT (stream_id) DO UPDATE SET revision = streams.revision + EXCLUDED.revision + 1 RETURNING stream_id, revision
  ),
  moved AS (
    UPDATE streams SET revision = streams.revision + input.count FROM input
    WHERE input.mode = 'exact' AND streams.stream_id = input.stream AND streams.revision = input.expected AND input.i NOT IN (SELECT i FROM stale)
    RETURNING streams.stream_id, streams.revision
  ),
  heads AS (SELECT * FROM created UNION ALL SELECT * FROM upserted UNION ALL SELECT * FROM moved)${cte}${inlineRows(inline, rows)}
  INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
  SELECT input.stream, heads.revision - input.count + e.ord, (e.ev->>'id')::uuid, e.ev->>'type', e.ev->'data', e.ev->'metadata',
    COALESCE((e.ev->>'recordedAt')::timestamptz, now()), e.ev->>'hash'
  FROM input JOIN heads ON heads.stream_id = input.stream CROSS JOIN LATERAL jsonb_array_elements(input.events) WITH ORDINALITY AS e(ev, ord)${join}
  ORDER BY input.i, e.ord
  RETURNING ${APPENDED_COLUMNS}`;
}
