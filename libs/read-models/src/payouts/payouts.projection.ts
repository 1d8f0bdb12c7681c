import type { SqlExecutor } from '@app/database';
import type { PayoutEvent, PayoutStatus } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import type { Projection } from '../projector/projection';

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
      const [status, at, changes] =
        event.type === 'PayoutSent'
          ? ['SENT', event.data.sentAt, { providerReference: event.data.providerReference }]
          : event.type === 'PayoutPaid'
            ? ['PAID', event.data.paidAt, { externalReferenceId: event.data.externalReferenceId, paidAt: event.data.paidAt }]
            : event.type === 'PayoutFailed'
              ? ['FAILED', event.data.failedAt, { failedAt: event.data.failedAt, reason: event.data.reason }]
              : event.type === 'PayoutCanceled'
                ? ['CANCELED', event.data.canceledAt, { canceledAt: event.data.canceledAt }]
                : [undefined, undefined, {}];
      if (!status) continue;
      await tx.query(`UPDATE payouts_view SET status = $2, last_news_at = $3, document = document || $4::jsonb WHERE payout_id = $1`, [
        (event.data as { payoutId: string }).payoutId,
        status,
        at,
        JSON.stringify({ ...changes, status }),
      ]);
    }
  },
};
