import type { SqlExecutor } from '@app/database';
import { comparePositions, START } from '@app/event-store';
import type { Projection } from './projection';
import { readCheckpoint } from './projection-progress';

/**
 * The projections whose tables do not hold what their code writes: a new projection, or one whose
 * version was raised, on a deployment whose log was applied before. A deployment that has applied
 * nothing yet has nothing to rebuild: it records the versions and replays the log as usual.
 */
export async function outdatedProjections(db: SqlExecutor, projections: readonly Projection[]): Promise<Projection[]> {
  const rows = await db.query<{ name: string; version: number }>(`SELECT name, version FROM projection_versions`);
  const stored = new Map(rows.map((row) => [row.name, row.version]));
  const outdated = projections.filter((p) => stored.get(p.name) !== p.version);
  if (outdated.length > 0 && comparePositions(await readCheckpoint(db), START) === 0) {
    await recordVersions(db, outdated);
    return [];
  }
  return outdated;
}

export async function recordVersions(db: SqlExecutor, projections: readonly Projection[]): Promise<void> {
  if (projections.length === 0) return;
  await db.query(
    `INSERT INTO projection_versions (name, version) SELECT * FROM unnest($1::text[], $2::int[])
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version`,
    [projections.map((p) => p.name), projections.map((p) => p.version)],
  );
}
