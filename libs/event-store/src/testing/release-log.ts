import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlClient } from '@app/database';

/** The log the release of 2026-11-23 wrote, with its credentials and answers (test/fixtures/release-2026-11-23/README.md). */
const FIXTURE = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'release-2026-11-23');

/** A row of the events table as the release of 2026-11-23 stored it. */
export interface StoredEvent {
  stream_id: string;
  stream_revision: string;
  event_id: string;
  event_type: string;
  data: unknown;
  metadata: unknown;
  recorded_at: string;
  hash: string;
}

/** One of the fixture's files (events.json, credentials.json, observed.json), parsed. */
export function readReleaseFixture<T>(file: string): T {
  return JSON.parse(readFileSync(join(FIXTURE, file), 'utf8')) as T;
}

/** The fixture's events, in log order. */
export const readReleaseLog = (): StoredEvent[] => readReleaseFixture<StoredEvent[]>('events.json');

/**
 * Writes the rows exactly as stored into a migrated event store's schema, one transaction per event
 * as they were written, so the log order holds.
 */
export async function storeReleaseLog(db: SqlClient, events: StoredEvent[]): Promise<void> {
  for (const e of events) {
    await db.query(
      `INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8)`,
      [e.stream_id, e.stream_revision, e.event_id, e.event_type, JSON.stringify(e.data), JSON.stringify(e.metadata), e.recorded_at, e.hash],
    );
    await db.query(`INSERT INTO streams (stream_id, revision) VALUES ($1, $2) ON CONFLICT (stream_id) DO UPDATE SET revision = EXCLUDED.revision`, [
      e.stream_id,
      e.stream_revision,
    ]);
  }
}
