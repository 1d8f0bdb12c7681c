import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '@app/database';
import { hashApiSecret } from './secrets';

/** How long a link waits to be opened: it is made for a redirect the platform does at once, as Stripe's account links are. */
export const ACCOUNT_LINK_TTL_MS = 10 * 60_000;

/** How long the page a link opened stays open for the seller to fill in. */
export const ACCOUNT_LINK_SESSION_TTL_MS = 60 * 60_000;

/** How long a link used or expired is kept, to send a seller who opens it again to its refreshUrl. */
const FORGOTTEN_AFTER_MS = 24 * 3_600_000;

/** What a link is for: one platform's account, and where the seller goes back to. */
export interface AccountLink {
  accountId: string;
  platformId: string;
  returnUrl: string;
  refreshUrl: string;
}

/** A link opened: the page's session, and what it may do. */
export interface OpenedLink {
  link: AccountLink;
  session: string;
  sessionExpiresAt: Date;
}

type Row = { account_id: string; platform_id: string; return_url: string; refresh_url: string };

const linkOf = (row: Row): AccountLink => ({ accountId: row.account_id, platformId: row.platform_id, returnUrl: row.return_url, refreshUrl: row.refresh_url });

/**
 * Account links (the hosted onboarding page's): a 256-bit token kept only as its SHA-256, good once and
 * for ACCOUNT_LINK_TTL_MS. Opening it spends it and starts the page's session (another 256-bit token,
 * kept as its SHA-256, in a cookie), so the link's URL, once followed, opens nothing again; the session
 * ends when the seller completes the page or after ACCOUNT_LINK_SESSION_TTL_MS.
 */
export class AccountLinks {
  constructor(private readonly db: SqlExecutor) {}

  async create(link: AccountLink, now: Date): Promise<{ token: string; expiresAt: Date }> {
    const token = `acctlink_${randomBytes(32).toString('base64url')}`;
    const expiresAt = new Date(now.getTime() + ACCOUNT_LINK_TTL_MS);
    // Links a day past their use still say where to get a new one; older ones go.
    const forgotten = new Date(now.getTime() - FORGOTTEN_AFTER_MS);
    await this.db.query(`DELETE FROM account_links WHERE expires_at < $1 AND (session_expires_at IS NULL OR session_expires_at < $1)`, [forgotten]);
    await this.db.query(`INSERT INTO account_links (token_hash, account_id, platform_id, return_url, refresh_url, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
      hashApiSecret(token),
      link.accountId,
      link.platformId,
      link.returnUrl,
      link.refreshUrl,
      expiresAt,
    ]);
    return { token, expiresAt };
  }

  /**
   * Spends the link (one statement: two tabs racing with one link cannot both open it) and starts its
   * session; a link used or expired answers its refreshUrl instead, an unknown one nothing.
   */
  async open(token: string, now: Date): Promise<OpenedLink | { spent: { refreshUrl: string } } | undefined> {
    const session = randomBytes(32).toString('base64url');
    const sessionExpiresAt = new Date(now.getTime() + ACCOUNT_LINK_SESSION_TTL_MS);
    const [opened] = await this.db.query<Row>(
      `UPDATE account_links SET session_hash = $2, session_expires_at = $3
       WHERE token_hash = $1 AND session_hash IS NULL AND expires_at > $4
       RETURNING account_id, platform_id, return_url, refresh_url`,
      [hashApiSecret(token), hashApiSecret(session), sessionExpiresAt, now],
    );
    if (opened) return { link: linkOf(opened), session, sessionExpiresAt };
    const [spent] = await this.db.query<{ refresh_url: string }>(`SELECT refresh_url FROM account_links WHERE token_hash = $1`, [hashApiSecret(token)]);
    return spent && { spent: { refreshUrl: spent.refresh_url } };
  }

  /** The link whose page this session is, while it is open; a session ended or expired answers its refreshUrl instead. */
  async session(session: string, now: Date): Promise<{ open: AccountLink } | { spent: { refreshUrl: string } } | undefined> {
    const [row] = await this.db.query<Row & { open: boolean }>(
      `SELECT account_id, platform_id, return_url, refresh_url, (completed_at IS NULL AND session_expires_at > $2) AS open FROM account_links WHERE session_hash = $1`,
      [hashApiSecret(session), now],
    );
    if (!row) return undefined;
    return row.open ? { open: linkOf(row) } : { spent: { refreshUrl: row.refresh_url } };
  }

  /** Ends the session: the page was completed. */
  async complete(session: string, now: Date): Promise<void> {
    await this.db.query(`UPDATE account_links SET completed_at = $2 WHERE session_hash = $1 AND completed_at IS NULL`, [hashApiSecret(session), now]);
  }
}
