import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import { isPayableStream, streamKey } from '@app/domain';
import { writeLast } from '../projector/batch-writes';
import type { BatchContext, BulkWriter, Projection, TableRow } from '../projector/projection';

const kinds = (...types: string[]) => new Set(types);

const INITIATED = kinds('OrderPaymentInitiated', 'EscrowPaymentInitiated');
/** An outcome the provider reported: no attempt of the order is awaited any more. */
const SETTLED = kinds('OrderPaid', 'EscrowFunded', 'OrderPaymentFailed', 'EscrowPaymentFailed', 'OrderPaymentRefused', 'EscrowPaymentRefused');
/** The order stopped taking payments without one: a push may still succeed late, so its attempts stay awaited a while. */
const CLOSED_UNPAID = kinds('OrderExpired', 'EscrowExpired', 'EscrowCancelled');
const REFUND_REQUESTED = kinds('OrderRefundRequested', 'EscrowRefundRequested');
const REFUND_FAILED = kinds('OrderRefundFailed', 'EscrowRefundFailed');
const REFUND_COMPLETED = kinds('OrderRefundCompleted', 'EscrowRefundCompleted');
const CHANGES_OPERATIONS = new Set([...INITIATED, ...SETTLED, ...CLOSED_UNPAID, ...REFUND_REQUESTED, ...REFUND_FAILED, ...REFUND_COMPLETED]);

const COLUMNS = ['operation_id', 'kind', 'payable_id', 'provider', 'provider_reference', 'status', 'opened_at', 'last_news_at', 'refusals', 'payable_closed_at', 'closed_at'];
const EVERY_COLUMN_BUT_THE_KEY = COLUMNS.filter((c) => c !== 'operation_id')
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(', ');

/**
 * A payable's operations after its history, event after event. Every operation is opened, and only
 * ever changed, by its own payable's events (an attempt's and a refund's ids are the payable's own),
 * so its history alone tells: the live projector and a rebuild each replace the rows of every payable
 * a batch changes with what this makes of its history, so the rules are written once.
 */
/** The payables whose operations the batch changes, and whether each began in it. */
function changedPayables(events: readonly RecordedEvent[]): { streamId: string; born: boolean }[] {
  const born = new Set(events.filter((e) => e.revision === 0n).map((e) => e.streamId));
  const changed = new Set(events.filter((e) => CHANGES_OPERATIONS.has(e.type) && isPayableStream(e.streamId)).map((e) => e.streamId));
  return [...changed].map((streamId) => ({ streamId, born: born.has(streamId) }));
}

function operationsAfter(streamId: string, history: readonly RecordedEvent[]): TableRow[] {
  const id = streamKey(streamId);
  const operations = new Map<string, TableRow>();
  const open = (operationId: string, row: TableRow) => {
    if (!operations.has(operationId)) operations.set(operationId, { operation_id: operationId, payable_id: id, status: 'OPEN', refusals: 0, payable_closed_at: null, closed_at: null, ...row });
  };
  const payments = () => [...operations.values()].filter((op) => op.kind === 'payment' && op.status === 'OPEN');
  for (const event of history) {
    const data = event.data as Record<string, string>;
    const operation = operations.get(data.refundId);
    if (INITIATED.has(event.type)) {
      open(data.attemptId, { kind: 'payment', provider: data.provider, provider_reference: data.providerReference, opened_at: data.initiatedAt, last_news_at: data.initiatedAt });
    } else if (SETTLED.has(event.type)) {
      for (const op of payments()) Object.assign(op, { status: 'CLOSED', closed_at: event.recordedAt });
    } else if (CLOSED_UNPAID.has(event.type)) {
      for (const op of payments()) if (op.payable_closed_at === null) op.payable_closed_at = event.recordedAt;
    } else if (REFUND_REQUESTED.has(event.type)) {
      open(data.refundId, { kind: 'refund', provider: null, provider_reference: null, opened_at: data.requestedAt, last_news_at: data.requestedAt });
    } else if (REFUND_FAILED.has(event.type) && operation) {
      Object.assign(operation, { refusals: (operation.refusals as number) + 1, last_news_at: data.failedAt });
    } else if (REFUND_COMPLETED.has(event.type) && operation) {
      Object.assign(operation, { status: 'CLOSED', closed_at: data.completedAt });
    }
  }
  return [...operations.values()];
}

/**
 * Every operation asked of the payment provider (a push, a refund) and whether its outcome is still
 * awaited. A notification can be lost; the reconciler reads the open ones here and asks the provider.
 */
export const providerOperationsView: Projection = {
  name: 'provider_operations',
  version: 1,
  tables: ['provider_operations'],
  folds: isPayableStream,
  // One statement for the batch, whatever its events: round trips stay constant.
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
    const rows = changedPayables(events).flatMap(({ streamId }) => operationsAfter(streamId, context.histories.of(streamId)));
    if (rows.length === 0) return;
    await writeLast(tx, context, 
      `INSERT INTO provider_operations (${COLUMNS.join(', ')})
       SELECT ${COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::provider_operations, $1::jsonb)
       ON CONFLICT (operation_id) DO UPDATE SET ${EVERY_COLUMN_BUT_THE_KEY}`,
      [JSON.stringify(rows)],
    );
  },
  // A payable that began in the batch has no rows yet; any other's are merged over what earlier batches left.
  async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[], { histories }: BatchContext) {
    const rows = (fresh: boolean) =>
      changedPayables(events)
        .filter(({ born }) => born === fresh)
        .flatMap(({ streamId }) => operationsAfter(streamId, histories.of(streamId)));
    await writer.append('provider_operations', COLUMNS, rows(true));
    await writer.merge('provider_operations', COLUMNS, rows(false), { key: ['operation_id'], set: EVERY_COLUMN_BUT_THE_KEY });
  },
};
