import type { SqlExecutor } from '@app/database';
import { onRealTime } from '../test-clocks/test-clock-objects.reader';

/** An account and an instant one of its requirements falls due. */
export interface RequirementDeadline {
  accountId: string;
  at: Date;
}

/** Each requirement due by `by` of the accounts a past-due requirement restricts (verified or pending), among those `scope` (an SQL condition on `a`) keeps. */
const DEADLINES = (scope: string) => `
  SELECT a.account_id, (r->>'dueBy')::timestamptz AS due_by
  FROM accounts_view a CROSS JOIN LATERAL jsonb_array_elements(a.document->'requirementsDue') r
  WHERE a.status IN ('VERIFIED', 'PENDING_VERIFICATION') AND a.document ? 'requirementsDue' AND (r->>'dueBy')::timestamptz <= $1 AND ${scope}
  ORDER BY due_by, a.account_id`;

const deadlines = (rows: { account_id: string; due_by: Date }[]): RequirementDeadline[] => rows.map((row) => ({ accountId: row.account_id, at: new Date(row.due_by) }));

/** Requirements falling due by `by` on accounts not yet restricted for them: what the payment work restricts (those on a test clock, its advances). */
export async function requirementDeadlinesDue(db: SqlExecutor, by: Date): Promise<RequirementDeadline[]> {
  return deadlines(await db.query(DEADLINES(onRealTime('a.account_id')), [by]));
}

/** The same for a test clock's accounts: what its advance restricts. */
export async function testClockRequirementDeadlines(db: SqlExecutor, testClockId: string, by: Date): Promise<RequirementDeadline[]> {
  const scope = `EXISTS (SELECT 1 FROM test_clock_objects o WHERE o.object_id = a.account_id AND o.test_clock_id = $2)`;
  return deadlines(await db.query(DEADLINES(scope), [by, testClockId]));
}
