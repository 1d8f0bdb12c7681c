import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '@app/database';
import type { Mode } from '@app/domain';
import { decryptSecret, encryptSecret, generateApiSecret, generateWebhookSecret, hashApiSecret } from './secrets';

export interface IssuedCredentials {
  apiSecret: string;
  webhookSecret: string;
}

export interface AuthenticatedMerchant {
  merchantId: string;
  /** Keys the merchant's derived escrow ids, so they cannot be guessed from a merchant id and order number. */
  idSalt: string;
  /** The tenant's mode, which its key opens: every request made with it is in this mode. */
  mode: Mode;
}

interface CredentialRow {
  merchant_id: string;
  id_salt: string;
  mode: Mode | null;
}

/**
 * A row's mode: null only for a merchant registered before modes on a deployment that has not yet
 * recorded its legacy mode (every process records it at start, before serving: docs/concepts/modes.md).
 */
function authenticated(row: CredentialRow | undefined): AuthenticatedMerchant | undefined {
  if (!row) return undefined;
  if (!row.mode) throw new Error(`merchant ${row.merchant_id} has no mode yet: the legacy mode is decided at start`);
  return { merchantId: row.merchant_id, idSalt: row.id_salt, mode: row.mode };
}

export class CredentialStore {
  constructor(
    private readonly db: SqlExecutor,
    private readonly secretsKey: Buffer,
  ) {}

  async issue(merchantId: string, mode: Mode, twinId?: string): Promise<IssuedCredentials> {
    const apiSecret = generateApiSecret(mode);
    const webhookSecret = generateWebhookSecret(mode);
    await this.db.query(
      `INSERT INTO merchant_credentials (merchant_id, api_secret_hash, api_secret_last4, webhook_secret_sealed, id_salt, mode, twin_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [merchantId, hashApiSecret(apiSecret), apiSecret.slice(-4), this.seal(merchantId, webhookSecret), randomBytes(16).toString('hex'), mode, twinId ?? null],
    );
    return { apiSecret, webhookSecret };
  }

  async findByApiSecret(apiSecret: string): Promise<AuthenticatedMerchant | undefined> {
    const rows = await this.db.query<CredentialRow>(`SELECT merchant_id, id_salt, mode FROM merchant_credentials WHERE api_secret_hash = $1`, [hashApiSecret(apiSecret)]);
    return authenticated(rows[0]);
  }

  /** For a merchant signed in to the dashboard, which acts through the same commands as its API secret. */
  async findByMerchantId(merchantId: string): Promise<AuthenticatedMerchant | undefined> {
    const rows = await this.db.query<CredentialRow>(`SELECT merchant_id, id_salt, mode FROM merchant_credentials WHERE merchant_id = $1`, [merchantId]);
    return authenticated(rows[0]);
  }

  /** A tenant's mode and its other mode's tenant (none for one registered before modes until it asks for it). */
  async modeOf(merchantId: string): Promise<{ mode: Mode; twinId: string | null } | undefined> {
    const [row] = await this.db.query<{ mode: Mode | null; twin_id: string | null }>(`SELECT mode, twin_id FROM merchant_credentials WHERE merchant_id = $1`, [merchantId]);
    return row?.mode ? { mode: row.mode, twinId: row.twin_id } : undefined;
  }

  /** Merchants registered before modes are in `mode` from now on (the deployment's recorded legacy mode). */
  async assignLegacyMode(mode: Mode): Promise<void> {
    await this.db.query(`UPDATE merchant_credentials SET mode = $1 WHERE mode IS NULL`, [mode]);
  }

  /** A tenant from before modes now has its other mode's tenant. */
  async pairTwin(merchantId: string, twinId: string): Promise<void> {
    await this.db.query(`UPDATE merchant_credentials SET twin_id = $2, updated_at = now() WHERE merchant_id = $1`, [merchantId, twinId]);
  }

  /** The last four characters of the current API secret (null for secrets issued before they were kept). */
  async apiSecretHint(merchantId: string): Promise<string | null> {
    const rows = await this.db.query<{ api_secret_last4: string | null }>(
      `SELECT api_secret_last4 FROM merchant_credentials WHERE merchant_id = $1`,
      [merchantId],
    );
    return rows[0]?.api_secret_last4 ?? null;
  }

  async rotateApiSecret(merchantId: string): Promise<string> {
    const apiSecret = generateApiSecret(await this.keyMode(merchantId));
    const rows = await this.db.query(
      `UPDATE merchant_credentials SET api_secret_hash = $2, api_secret_last4 = $3, updated_at = now() WHERE merchant_id = $1 RETURNING merchant_id`,
      [merchantId, hashApiSecret(apiSecret), apiSecret.slice(-4)],
    );
    if (rows.length === 0) throw new Error(`no credentials for merchant ${merchantId}`);
    return apiSecret;
  }

  async rotateWebhookSecret(merchantId: string): Promise<string> {
    const webhookSecret = generateWebhookSecret(await this.keyMode(merchantId));
    const rows = await this.db.query(
      `UPDATE merchant_credentials SET webhook_secret_sealed = $2, updated_at = now() WHERE merchant_id = $1 RETURNING merchant_id`,
      [merchantId, this.seal(merchantId, webhookSecret)],
    );
    if (rows.length === 0) throw new Error(`no credentials for merchant ${merchantId}`);
    return webhookSecret;
  }

  async webhookSecret(merchantId: string): Promise<string | undefined> {
    const rows = await this.db.query<{ webhook_secret_sealed: string }>(
      `SELECT webhook_secret_sealed FROM merchant_credentials WHERE merchant_id = $1`,
      [merchantId],
    );
    return rows[0] && decryptSecret(this.secretsKey, rows[0].webhook_secret_sealed, `webhook:${merchantId}`);
  }

  /**
   * A seller account's webhook secret, issued on first use: an account made before accounts had secrets
   * gets one the first time the platform asks for it or a callback is signed for it, whichever comes first.
   */
  async accountWebhookSecret(accountId: string): Promise<string> {
    await this.db.query(`INSERT INTO account_webhook_secrets (account_id, secret_sealed) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING`, [
      accountId,
      this.seal(accountId, generateWebhookSecret()),
    ]);
    const [row] = await this.db.query<{ secret_sealed: string }>(`SELECT secret_sealed FROM account_webhook_secrets WHERE account_id = $1`, [accountId]);
    return decryptSecret(this.secretsKey, row.secret_sealed, `webhook:${accountId}`);
  }

  async rotateAccountWebhookSecret(accountId: string): Promise<string> {
    const secret = generateWebhookSecret();
    await this.db.query(
      `INSERT INTO account_webhook_secrets (account_id, secret_sealed) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, updated_at = now()`,
      [accountId, this.seal(accountId, secret)],
    );
    return secret;
  }

  /**
   * A new webhook endpoint's own signing secret, kept before the endpoint's creation is recorded. A
   * retried create (the same endpoint id) gets the secret kept the first time, so it is shown again
   * to the request that made it rather than replaced under a receiver already using it.
   */
  async issueEndpointSecret(merchantId: string, endpointId: string): Promise<string> {
    await this.db.query(`INSERT INTO webhook_endpoint_secrets (endpoint_id, merchant_id, secret_sealed) VALUES ($1, $2, $3) ON CONFLICT (endpoint_id) DO NOTHING`, [
      endpointId,
      merchantId,
      this.sealEndpoint(merchantId, endpointId, generateWebhookSecret(await this.keyMode(merchantId))),
    ]);
    const [row] = await this.db.query<{ secret_sealed: string }>(`SELECT secret_sealed FROM webhook_endpoint_secrets WHERE endpoint_id = $1 AND merchant_id = $2`, [endpointId, merchantId]);
    if (!row) throw new Error(`webhook endpoint ${endpointId} is another merchant's`);
    return decryptSecret(this.secretsKey, row.secret_sealed, `webhook-endpoint:${merchantId}:${endpointId}`);
  }

  /** Undefined for an endpoint this merchant has no secret for (not its own, or deleted). */
  async rotateEndpointSecret(merchantId: string, endpointId: string): Promise<string | undefined> {
    const secret = generateWebhookSecret(await this.keyMode(merchantId));
    const rows = await this.db.query(
      `UPDATE webhook_endpoint_secrets SET secret_sealed = $3, updated_at = now() WHERE endpoint_id = $1 AND merchant_id = $2 RETURNING endpoint_id`,
      [endpointId, merchantId, this.sealEndpoint(merchantId, endpointId, secret)],
    );
    return rows.length === 0 ? undefined : secret;
  }

  /** What its deliveries are signed with; undefined once the endpoint is deleted. */
  async endpointSecret(endpointId: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ merchant_id: string; secret_sealed: string }>(`SELECT merchant_id, secret_sealed FROM webhook_endpoint_secrets WHERE endpoint_id = $1`, [endpointId]);
    return row && decryptSecret(this.secretsKey, row.secret_sealed, `webhook-endpoint:${row.merchant_id}:${endpointId}`);
  }

  /** A deleted endpoint's secret goes with it: nothing is signed for it again. */
  async dropEndpointSecret(merchantId: string, endpointId: string): Promise<void> {
    await this.db.query(`DELETE FROM webhook_endpoint_secrets WHERE endpoint_id = $1 AND merchant_id = $2`, [endpointId, merchantId]);
  }

  /** The mode a new secret of the merchant's says it is in (none for a merchant without credentials here). */
  private async keyMode(merchantId: string): Promise<Mode | undefined> {
    return (await this.modeOf(merchantId))?.mode;
  }

  private sealEndpoint(merchantId: string, endpointId: string, secret: string): string {
    return encryptSecret(this.secretsKey, secret, `webhook-endpoint:${merchantId}:${endpointId}`);
  }

  private seal(merchantId: string, webhookSecret: string): string {
    return encryptSecret(this.secretsKey, webhookSecret, `webhook:${merchantId}`);
  }
}
