import type { Migration } from '@app/database';

/**
 * The sandbox provider's own books: what it was asked to push and refund, and how each ends. They
 * live in the database, not in a process, so any process (a restarted worker, another API) gives
 * the same answer when asked about an operation, as a real provider would.
 */
export const SANDBOX_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-sandbox-operations',
    sql: `
      CREATE TABLE IF NOT EXISTS sandbox_payments (
        attempt_id text PRIMARY KEY,
        provider_reference text NOT NULL UNIQUE,
        order_id text NOT NULL,
        phone text NOT NULL,
        amount bigint NOT NULL,
        otp_required boolean NOT NULL,
        outcome text NOT NULL,
        reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        answer_at timestamptz
      );
      CREATE TABLE IF NOT EXISTS sandbox_refunds (
        refund_id text PRIMARY KEY,
        order_id text NOT NULL,
        amount bigint NOT NULL,
        external_reference_id text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        settles_at timestamptz NOT NULL
      );
    `,
  },
  {
    id: '002-sandbox-transfers',
    sql: `
      CREATE TABLE IF NOT EXISTS sandbox_transfers (
        reference text PRIMARY KEY,
        amount bigint NOT NULL,
        external_reference_id text NOT NULL UNIQUE,
        outcome text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        settles_at timestamptz NOT NULL
      );
    `,
  },
];
