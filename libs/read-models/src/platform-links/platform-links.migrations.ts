import type { Migration } from '@app/database';

/**
 * Links between merchants and the platforms they let move their money (platform_links_view,
 * platform-links.projection.ts). They run among the other features' in id order (read-model.migrations.ts); a
 * released one never changes (read-model.migrations.spec.ts).
 */
export const PLATFORM_LINKS_MIGRATIONS: readonly Migration[] = [
  {
    // Links between registered merchants and the platforms they let move their money (platform-links.projection.ts),
    // listed by merchant and by platform.
    id: '040-platform-links',
    sql: `
      CREATE TABLE IF NOT EXISTS platform_links_view (
        link_key text PRIMARY KEY,
        merchant_id text NOT NULL,
        platform_id text NOT NULL,
        linked boolean NOT NULL,
        decided_by text NOT NULL,
        since timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        revision bigint
      );
      CREATE INDEX IF NOT EXISTS platform_links_view_merchant ON platform_links_view (merchant_id) WHERE linked;
      CREATE INDEX IF NOT EXISTS platform_links_view_platform ON platform_links_view (platform_id, since) WHERE linked;
    `,
  },
];
