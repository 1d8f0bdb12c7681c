import type { Migration } from '@app/database';

/**
 * Credentials are write-side state, not a read model: they must never enter the event log, so they
 * cannot be rebuilt from it. The log records only that a secret was issued or rotated.
 */
export const CREDENTIAL_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-merchant-credentials',
    sql: `
      CREATE TABLE IF NOT EXISTS merchant_credentials (
        merchant_id text PRIMARY KEY,
        api_secret_hash text NOT NULL UNIQUE,
        webhook_secret_sealed text NOT NULL,
        id_salt text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    id: '002-auditor-credentials',
    sql: `
      CREATE TABLE IF NOT EXISTS auditor_credentials (
        auditor_id text PRIMARY KEY,
        name text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    // The dashboard's sign-in: e-mail and argon2 password hash, the pending invitation (its SHA-256
    // only), failed-attempt counters per e-mail hash, and server-side sessions shared by every process.
    id: '003-console-sign-in',
    sql: `
      ALTER TABLE merchant_credentials ADD COLUMN IF NOT EXISTS api_secret_last4 text;
      CREATE TABLE IF NOT EXISTS merchant_logins (
        merchant_id text PRIMARY KEY,
        email text NOT NULL UNIQUE,
        password_hash text,
        invitation_hash text UNIQUE,
        invitation_expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE IF NOT EXISTS sign_in_failures (
        subject text PRIMARY KEY,
        failures integer NOT NULL,
        locked_until timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE IF NOT EXISTS console_sessions (
        token_hash text PRIMARY KEY,
        kind text NOT NULL,
        subject_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS console_sessions_expiry ON console_sessions (expires_at);
    `,
  },
  {
    // Payout account numbers, sealed; the log names them by reference only.
    id: '004-payout-accounts',
    sql: `
      CREATE TABLE IF NOT EXISTS payout_accounts (
        account_ref text PRIMARY KEY,
        merchant_id text NOT NULL,
        account_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    // Each webhook endpoint's signing secret, sealed like the merchant's; the log records only that one was issued or rotated.
    id: '005-webhook-endpoint-secrets',
    sql: `
      CREATE TABLE IF NOT EXISTS webhook_endpoint_secrets (
        endpoint_id text PRIMARY KEY,
        merchant_id text NOT NULL,
        secret_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    // Each seller account's own webhook secret (its callbacks are signed with it, not the platform's), sealed like a merchant's.
    id: '006-account-webhook-secrets',
    sql: `
      CREATE TABLE IF NOT EXISTS account_webhook_secrets (
        account_id text PRIMARY KEY,
        secret_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    // The mode of the tenant each key opens, and the owner's other tenant: null for merchants registered
    // before modes until the start that records the deployment's legacy mode gives them that mode.
    id: '007-merchant-modes',
    sql: `
      ALTER TABLE merchant_credentials ADD COLUMN IF NOT EXISTS mode text;
      ALTER TABLE merchant_credentials ADD COLUMN IF NOT EXISTS twin_id text;
    `,
  },
  {
    // The tenant a dashboard session acts in (its owner's test or live tenant); null for a session
    // started before the switch, which acts in its subject's.
    id: '008-console-session-tenant',
    sql: `ALTER TABLE console_sessions ADD COLUMN IF NOT EXISTS tenant_id text;`,
  },
  {
    // Documents uploaded for a platform's seller accounts, sealed; the log holds only their kind, size and digest.
    id: '009-account-documents',
    sql: `
      CREATE TABLE IF NOT EXISTS account_documents (
        document_id text PRIMARY KEY,
        account_id text NOT NULL,
        content_type text NOT NULL,
        sealed bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    // Account links (account-links.ts): the link's token and the page session it opens, each only as its SHA-256.
    id: '010-account-links',
    sql: `
      CREATE TABLE IF NOT EXISTS account_links (
        token_hash text PRIMARY KEY,
        account_id text NOT NULL,
        platform_id text NOT NULL,
        return_url text NOT NULL,
        refresh_url text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        session_hash text UNIQUE,
        session_expires_at timestamptz,
        completed_at timestamptz
      );
    `,
  },
  {
    // The operator's staff's own admin keys (named-keys.ts), as hashes; a revoked key keeps its row, so the name
    // of who decided stays readable.
    id: '011-staff-credentials',
    sql: `
      CREATE TABLE IF NOT EXISTS staff_credentials (
        staff_id text PRIMARY KEY,
        name text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
    `,
  },
  {
    // Auditors' keys are kept as staff keys are, by one store (named-keys.ts), which finds only keys not revoked.
    id: '012-auditor-key-revocation',
    sql: `ALTER TABLE auditor_credentials ADD COLUMN IF NOT EXISTS revoked_at timestamptz;`,
  },
];
