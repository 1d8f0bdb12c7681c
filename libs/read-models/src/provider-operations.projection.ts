import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import type { Projection } from './projection';

const payableId = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);
const kinds = (...types: string[]) => new Set(types);

const INITIATED = kinds('OrderPaymentInitiated', 'EscrowPaymentInitiated');
/** An outcome the provider reported: no attempt of the order is awaited any more. */
const SETTLED = kinds('OrderPaid', 'EscrowFunded', 'OrderPaymentFailed', 'EscrowPaymentFailed', 'OrderPaymentRefused', 'EscrowPaymentRefused');
/** The order stopped taking payments without one: a push may still succeed late, so its attempts stay awaited a while. */
const CLOSED_UNPAID = kinds('OrderExpired', 'EscrowExpired', 'EscrowCancelled');
const REFUND_REQUESTED = kinds('OrderRefundRequested', 'EscrowRefundRequested');
const REFUND_FAILED = kinds('OrderRefundFailed', 'EscrowRefundFailed');
const REFUND_COMPLETED = kinds('OrderRefundCompleted', 'EscrowRefundCompleted');

/**
 * Every operation asked of the payment provider (a push, a refund) and whether its outcome is still
 * awaited. A notification can be lost; the reconciler reads the open ones here and asks the provider.
 */
export const providerOperationsView: Projection = {
  name: 'provider_operations',
  version: 1,
  tables: ['provider_operations'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]) {
    for (const event of events) {
      const id = payableId(event.streamId);
      const data = event.data as Record<string, string>;
      if (INITIATED.has(event.type)) {
        await tx.query(
          `INSERT INTO provider_operations (operation_id, kind, payable_id, provider, provider_reference, status, opened_at, last_news_at)
           VALUES ($1, 'payment', $2, $3, $4, 'OPEN', $5, $5) ON CONFLICT (operation_id) DO NOTHING`,
          [data.attemptId, id, data.provider, data.providerReference, data.initiatedAt],
        );
      } else if (SETTLED.has(event.type)) {
        await tx.query(
          `UPDATE provider_operations SET status = 'CLOSED', closed_at = $2 WHERE payable_id = $1 AND kind = 'payment' AND status = 'OPEN'`,
          [id, event.recordedAt],
        );
      } else if (CLOSED_UNPAID.has(event.type)) {
        await tx.query(
          `UPDATE provider_operations SET payable_closed_at = $2 WHERE payable_id = $1 AND kind = 'payment' AND status = 'OPEN' AND payable_closed_at IS NULL`,
          [id, event.recordedAt],
        );
      } else if (REFUND_REQUESTED.has(event.type)) {
        await tx.query(
          `INSERT INTO provider_operations (operation_id, kind, payable_id, status, opened_at, last_news_at)
           VALUES ($1, 'refund', $2, 'OPEN', $3, $3) ON CONFLICT (operation_id) DO NOTHING`,
          [data.refundId, id, data.requestedAt],
        );
      } else if (REFUND_FAILED.has(event.type)) {
        await tx.query(`UPDATE provider_operations SET refusals = refusals + 1, last_news_at = $2 WHERE operation_id = $1`, [data.refundId, data.failedAt]);
      } else if (REFUND_COMPLETED.has(event.type)) {
        await tx.query(`UPDATE provider_operations SET status = 'CLOSED', closed_at = $2 WHERE operation_id = $1`, [data.refundId, data.completedAt]);
      }
    }
  },
};
