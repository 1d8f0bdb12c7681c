import type { Migration } from '@app/database';

/**
 * Test clocks and the objects attached to them (test_clocks_view, test_clock_objects:
 * test-clocks.projection.ts, test-clock-objects.projection.ts). They run among the other features' in id
 * order (read-model.migrations.ts); a released one never changes (read-model.migrations.spec.ts).
 */
export const TEST_CLOCKS_MIGRATIONS: readonly Migration[] = [
  {
    // The orders, escrows and accounts attached to each test clock (test-clock-objects.projection.ts).
    id: '043-test-clock-objects',
    sql: `
      CREATE TABLE IF NOT EXISTS test_clock_objects (
        object_id text PRIMARY KEY,
        test_clock_id text NOT NULL,
        event_type text NOT NULL
      );
      CREATE INDEX IF NOT EXISTS test_clock_objects_clock ON test_clock_objects (test_clock_id);
    `,
  },
  {
    // Each test clock's time (test-clocks.projection.ts): the audit console's alerts judge an attached object's age on it.
    id: '045-test-clocks-view',
    sql: `
      CREATE TABLE IF NOT EXISTS test_clocks_view (
        test_clock_id text PRIMARY KEY,
        frozen_time timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        revision bigint
      );
    `,
  },
];
