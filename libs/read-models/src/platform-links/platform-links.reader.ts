import type { SqlExecutor } from '@app/database';
import type { LinkDecidedBy } from '@app/domain';

/** A link between a merchant and a platform that stands, as the lists show it. */
export interface PlatformLinkView {
  merchantId: string;
  platformId: string;
  decidedBy: LinkDecidedBy;
  linkedAt: Date;
}

type Row = { merchant_id: string; platform_id: string; decided_by: LinkDecidedBy; since: Date };

const present = (row: Row): PlatformLinkView => ({ merchantId: row.merchant_id, platformId: row.platform_id, decidedBy: row.decided_by, linkedAt: row.since });

/** The platforms a merchant is linked to now, oldest link first (a merchant links few). */
export async function linksOfMerchant(db: SqlExecutor, merchantId: string): Promise<PlatformLinkView[]> {
  const rows = await db.query<Row>(`SELECT merchant_id, platform_id, decided_by, since FROM platform_links_view WHERE merchant_id = $1 AND linked ORDER BY since, platform_id`, [merchantId]);
  return rows.map(present);
}

/** The merchants linked to a platform now, oldest link first, at most `limit`. */
export async function merchantsLinkedTo(db: SqlExecutor, platformId: string, limit = 1000): Promise<PlatformLinkView[]> {
  const rows = await db.query<Row>(`SELECT merchant_id, platform_id, decided_by, since FROM platform_links_view WHERE platform_id = $1 AND linked ORDER BY since, merchant_id LIMIT $2`, [platformId, limit]);
  return rows.map(present);
}
