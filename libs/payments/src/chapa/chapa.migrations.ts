import type { Migration } from '@app/database';

/**
 * What the Chapa adapter must remember between processes and cannot ask Chapa for: the
 * `requestID` a charge's one-time code is sent back with, and the `ref_id` a refund is verified by.
 * Neither is a secret, and no phone number or key is kept.
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
];
