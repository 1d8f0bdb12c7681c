import type { Migration } from '@app/database';

/**
 * What the Chapa adapter must remember between processes and cannot ask Chapa for: the
 * `requestID` a charge's one-time code is sent back with, and a refund's `reference` (claimed before
 * it is sent) and the `ref_id` it is verified by. None is a secret, and no phone number or key is kept.
 */
export const CHAPA_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-chapa-requests',
    sql: `
      CREATE TABLE IF NOT EXISTS chapa_charges (
        tx_ref text PRIMARY KEY,
        method text NOT NULL,
        otp_required boolean NOT NULL,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE IF NOT EXISTS chapa_refunds (
        refund_id text PRIMARY KEY,
        ref_id text NOT NULL,
        attempt integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    // A refund is claimed under its reference before it is sent (chapa-records.ts): one job sends it at
    // a time, and a reference whose answer was lost is remembered as sent, so it is never taken as new.
    id: '002-chapa-refund-claims',
    sql: `
      ALTER TABLE chapa_refunds ALTER COLUMN ref_id DROP NOT NULL;
      ALTER TABLE chapa_refunds ADD COLUMN IF NOT EXISTS reference text;
      ALTER TABLE chapa_refunds ADD COLUMN IF NOT EXISTS sends integer NOT NULL DEFAULT 1;
      ALTER TABLE chapa_refunds ADD COLUMN IF NOT EXISTS claimed_until timestamptz;
      UPDATE chapa_refunds SET reference = CASE attempt WHEN 1 THEN refund_id ELSE refund_id || '-try-' || attempt END WHERE reference IS NULL;
      ALTER TABLE chapa_refunds ALTER COLUMN reference SET NOT NULL;
    `,
  },
];
