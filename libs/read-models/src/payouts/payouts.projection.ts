import type { SqlExecutor } from '@app/database';
import type { PayoutEvent, PayoutStatus } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import type { BulkWriter, Projection } from '../projector/projection';

/** A payout as its merchant reads it. Amounts in santim. */
export interface PayoutView {
  payoutId: string;
  merchantId: string;
  status: PayoutStatus;
  amount: number;
  destinationVersion: number;
  trigger: 'on-demand' | 'schedule';
  /** The schedule's period a scheduled payout pays. */
  period?: string;
  /**
   * How many movements it settles, for a payout of the payout account stream (payouts-{merchantId}),
   * whose movements are rows of payout_movements; a payout of its own stream settles a range of the
   * ledger instead (`after`, `through`), read page by page from the ledger.
   */
  movements?: number;
  /** The range of the payable it settles, as log positions (PayoutRequested's `after` and `through`). */
  after?: string | null;
  through?: string;
  requestedAt: string;
  providerReference?: string;
  externalReferenceId?: string;
  paidAt?: string;
  failedAt?: string;
  reason?: string;
  canceledAt?: string;
}

/**
 * The view of a payout just requested: what the projection stores, and what the on-demand request
 * answers with before the projection has caught up, so the two cannot drift apart.
 */
export function requestedPayoutView(data: Extract<PayoutEvent, { type: 'PayoutRequested' }>['data']): PayoutView {
  const { payoutId, merchantId, amount, destinationVersion, trigger, period, settles, after, through, requestedAt } = data;
  const settled = settles === undefined ? { after: after ?? null, through } : { movements: settles.length };
  return { payoutId, merchantId, status: 'REQUESTED', amount, destinationVersion, trigger, ...(period !== undefined && { period }), ...settled, requestedAt };
}

const PAYOUT_EVENTS = new Set(['PayoutRequested', 'PayoutSent', 'PayoutPaid', 'PayoutFailed', 'PayoutCanceled']);

/** What a payout's later event changes: its status, when it was heard of, and what its document gains; undefined for any other event. */
function newsOf(event: PayoutEvent): { status: PayoutStatus; at: string; changes: Record<string, unknown> } | undefined {
  switch (event.type) {
    case 'PayoutSent':
      return { status: 'SENT', at: event.data.sentAt, changes: { providerReference: event.data.providerReference } };
    case 'PayoutPaid':
      return { status: 'PAID', at: event.data.paidAt, changes: { externalReferenceId: event.data.externalReferenceId, paidAt: event.data.paidAt } };
    case 'PayoutFailed':
      return { status: 'FAILED', at: event.data.failedAt, changes: { failedAt: event.data.failedAt, reason: event.data.reason } };
    case 'PayoutCanceled':
      return { status: 'CANCELED', at: event.data.canceledAt, changes: { canceledAt: event.data.canceledAt } };
    default:
      return undefined;
  }
}

/** A payout as a rebuild's batch leaves it: its status, when it was last heard of, and its document (for one of an earlier batch: what the batch adds to it). */
interface Folded {
  status: PayoutStatus;
  at: string;
  document: Record<string, unknown>;
}

/** News laid over a payout as applyBatch's update lays it (jsonb's `||`): a field left undefined is not sent, so it keeps what was there. */
function lay(folded: Folded, { status, at, changes }: NonNullable<ReturnType<typeof newsOf>>): void {
  for (const [field, value] of Object.entries(changes)) if (value !== undefined) folded.document[field] = value;
  folded.document.status = status;
  folded.status = status;
  folded.at = at;
}

/**
 * Each payout, and whether the provider's outcome is still awaited (REQUESTED, SENT): the reconcile pass
 * asks about those; and, for a payout of the payout account stream, what it settles, a row per movement,
 * so that no answer carries them all at once (a payout of its own stream settles a range of the ledger).
 */
export const payoutsView: Projection = {
  name: 'payouts_view',
  version: 2,
  tables: ['payouts_view', 'payout_movements'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]) {
    for (const recorded of events) {
      if (!PAYOUT_EVENTS.has(recorded.type)) continue;
      const event = { type: recorded.type, data: recorded.data } as PayoutEvent;
      if (event.type === 'PayoutRequested') {
        const view = requestedPayoutView(event.data);
        const { payoutId, merchantId, amount, requestedAt } = view;
        await tx.query(
          `INSERT INTO payouts_view (payout_id, merchant_id, status, amount, requested_at, last_news_at, document)
           VALUES ($1, $2, 'REQUESTED', $3, $4, $4, $5) ON CONFLICT (payout_id) DO NOTHING`,
          [payoutId, merchantId, amount, requestedAt, JSON.stringify(view)],
        );
        const { settles } = event.data;
        if (settles === undefined) continue;
        await tx.query(
          `INSERT INTO payout_movements (payout_id, seq, event_id, amount)
           SELECT $1, m.seq, m.event_id, m.amount FROM unnest($2::integer[], $3::text[], $4::bigint[]) AS m(seq, event_id, amount)
           ON CONFLICT DO NOTHING`,
          [payoutId, settles.map((_, i) => i), settles.map((m) => m.eventId), settles.map((m) => m.amount)],
        );
        continue;
      }
      const news = newsOf(event);
      if (!news) continue;
      await tx.query(`UPDATE payouts_view SET status = $2, last_news_at = $3, document = document || $4::jsonb WHERE payout_id = $1`, [
        (event.data as { payoutId: string }).payoutId,
        news.status,
        news.at,
        JSON.stringify({ ...news.changes, status: news.status }),
      ]);
    }
  },
  // Three statements a batch at most: the payouts it requests, with what the batch's later events
  // changed of them; their movements; and the news of payouts requested in earlier batches, each
  // payout's news of the batch laid over one another in log order.
  async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[]) {
    const requested = new Map<string, Folded & { view: PayoutView }>();
    const movements: { payoutId: string; seq: number; eventId: string; amount: number }[] = [];
    const later = new Map<string, Folded>();
    for (const recorded of events) {
      if (!PAYOUT_EVENTS.has(recorded.type)) continue;
      const event = { type: recorded.type, data: recorded.data } as PayoutEvent;
      if (event.type === 'PayoutRequested') {
        const view = requestedPayoutView(event.data);
        if (requested.has(view.payoutId)) continue;
        requested.set(view.payoutId, { view, status: 'REQUESTED', at: view.requestedAt, document: { ...view } });
        event.data.settles?.forEach((m, seq) => movements.push({ payoutId: view.payoutId, seq, eventId: m.eventId, amount: m.amount }));
        continue;
      }
      const news = newsOf(event);
      if (!news) continue;
      const payoutId = (event.data as { payoutId: string }).payoutId;
      const folded = requested.get(payoutId) ?? later.get(payoutId) ?? later.set(payoutId, { status: news.status, at: news.at, document: {} }).get(payoutId)!;
      lay(folded, news);
    }
    if (requested.size > 0) {
      const rows = [...requested.values()].map(({ view, status, at, document }) => ({
        payout_id: view.payoutId,
        merchant_id: view.merchantId,
        status,
        amount: view.amount,
        requested_at: view.requestedAt,
        last_news_at: at,
        document,
      }));
      await writer.query(
        `INSERT INTO payouts_view (payout_id, merchant_id, status, amount, requested_at, last_news_at, document)
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(payout_id text, merchant_id text, status text, amount bigint, requested_at timestamptz, last_news_at timestamptz, document jsonb)
         ON CONFLICT (payout_id) DO NOTHING`,
        [JSON.stringify(rows)],
      );
    }
    if (movements.length > 0) {
      await writer.query(
        `INSERT INTO payout_movements (payout_id, seq, event_id, amount)
         SELECT * FROM unnest($1::text[], $2::integer[], $3::text[], $4::bigint[]) ON CONFLICT DO NOTHING`,
        [movements.map((m) => m.payoutId), movements.map((m) => m.seq), movements.map((m) => m.eventId), movements.map((m) => m.amount)],
      );
    }
    if (later.size === 0) return;
    const news = [...later].map(([payoutId, { status, at, document }]) => ({ payout_id: payoutId, status, at, changes: document }));
    await writer.query(
      `UPDATE payouts_view p SET status = n.status, last_news_at = n.at, document = p.document || n.changes
       FROM jsonb_to_recordset($1::jsonb) AS n(payout_id text, status text, at timestamptz, changes jsonb) WHERE p.payout_id = n.payout_id`,
      [JSON.stringify(news)],
    );
  },
};
