import { PAYOUT_ACCOUNTS_SQL } from '@app/audit';
import type { SqlExecutor } from '@app/database';

/** What a ledger line is about, in words rather than ids, as the merchant whose line it is reads it. */
export interface EntryNames {
  /**
   * The other parties of the line, by name, comma-separated: the merchants and accounts whose payable or
   * fees the entry also moves (the seller on its platform's fee, a transfer's other side) and the order's
   * or escrow's creator (the platform on its seller's release, with a fee or without); null when there is
   * none (one's own order paid, a payout).
   */
  counterparty: string | null;
  /** The order's or escrow's description (else its items' names), or the transfer's; null for a payout. */
  sourceDescription: string | null;
  /**
   * The escrow and the payment order the line belongs to: its own source for an escrow's or an order's
   * line, what a transfer named (its `escrowId` or `orderId`) for a transfer's line and its reversals,
   * so that both sides of a transfer read which escrow or order it was for; null when none.
   */
  escrowId: string | null;
  orderId: string | null;
}

/**
 * Names are read where they live: an account's legal name (accounts_view), a merchant's registered
 * name (merchants_view), a payable's description and items (payables_view), a transfer's description
 * and what it belongs to (transfers_view). One statement for a page of lines.
 */
const NAMES = `
  SELECT t.event_id,
    (SELECT string_agg(COALESCE(a.document->>'name', m.name, o.owner), ', ' ORDER BY o.owner)
     FROM (SELECT ${PAYOUT_ACCOUNTS_SQL.ownerOf('c.account')} AS owner FROM ledger_postings c
           WHERE c.entry_id = t.event_id AND ${PAYOUT_ACCOUNTS_SQL.matches('c.account')}
           UNION SELECT pv.merchant_id) o
     LEFT JOIN accounts_view a ON a.account_id = o.owner
     LEFT JOIN merchants_view m ON m.merchant_id = o.owner
     WHERE o.owner <> $1) AS counterparty,
    COALESCE(pv.document->>'description', (SELECT string_agg(i->>'itemName', ', ') FROM jsonb_array_elements(pv.document->'items') i), tv.description) AS source_description,
    CASE WHEN pv.kind = 'escrow' THEN pv.payable_id ELSE tv.escrow_id END AS escrow_id,
    CASE WHEN pv.kind = 'order' THEN pv.payable_id ELSE tv.order_id END AS order_id
  FROM unnest($2::text[], $3::text[]) AS t(event_id, source)
  LEFT JOIN payables_view pv ON pv.payable_id = t.source
  LEFT JOIN transfers_view tv ON tv.transfer_id = t.source`;

/** The names of the lines `lines` of `merchantId`'s payable and fees (each its ledger entry's event id and its stream's key), by event id. */
export async function entryNames(db: SqlExecutor, merchantId: string, lines: readonly { eventId: string; source: string }[]): Promise<Map<string, EntryNames>> {
  if (lines.length === 0) return new Map();
  const rows = await db.query<{ event_id: string; counterparty: string | null; source_description: string | null; escrow_id: string | null; order_id: string | null }>(NAMES, [
    merchantId,
    lines.map((line) => line.eventId),
    lines.map((line) => line.source),
  ]);
  return new Map(
    rows.map((row) => [row.event_id, { counterparty: row.counterparty, sourceDescription: row.source_description, escrowId: row.escrow_id, orderId: row.order_id }]),
  );
}
