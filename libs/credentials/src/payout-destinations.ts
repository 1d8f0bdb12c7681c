import { createHmac, randomBytes } from 'node:crypto';
import type { SqlExecutor } from '@app/database';
import { decryptSecret, encryptSecret } from './secrets';

/** What may be written down about an account: an opaque reference to it, a keyed fingerprint, the last digits. */
export interface KeptAccount {
  accountRef: string;
  /** HMAC of the number under the secrets key: tells a changed account from the same one, and cannot be reversed. */
  fingerprint: string;
  mask: string;
}

/**
 * Payout account numbers, sealed like webhook secrets (AES-256-GCM under SECRETS_KEY, the merchant
 * and the reference as associated data). The event log names an account only by its reference.
 */
export class PayoutDestinations {
  constructor(
    private readonly db: SqlExecutor,
    private readonly secretsKey: Buffer,
  ) {}

  async keep(merchantId: string, accountNumber: string): Promise<KeptAccount> {
    // `dst_`, leaving `acct_` to the ids of a platform's seller accounts; references made before keep `acct_`, and a reference is only ever looked up whole.
    const accountRef = `dst_${randomBytes(12).toString('hex')}`;
    await this.db.query(`INSERT INTO payout_accounts (account_ref, merchant_id, account_sealed) VALUES ($1, $2, $3)`, [
      accountRef,
      merchantId,
      encryptSecret(this.secretsKey, accountNumber, `payout-account:${merchantId}:${accountRef}`),
    ]);
    return { accountRef, fingerprint: this.fingerprint(merchantId, accountNumber), mask: `••••${accountNumber.slice(-4)}` };
  }

  /** The number, to make a transfer with; undefined for a reference this merchant never kept. */
  async accountNumber(merchantId: string, accountRef: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ account_sealed: string }>(`SELECT account_sealed FROM payout_accounts WHERE account_ref = $1 AND merchant_id = $2`, [accountRef, merchantId]);
    return row && decryptSecret(this.secretsKey, row.account_sealed, `payout-account:${merchantId}:${accountRef}`);
  }

  private fingerprint(merchantId: string, accountNumber: string): string {
    return createHmac('sha256', this.secretsKey).update(`payout-account:${merchantId}:${accountNumber}`).digest('hex').slice(0, 32);
  }
}
