import type { SqlExecutor } from '@app/database';
import { addisDay, addisTime, formatEtbFixed, type Santim } from '@app/domain';
import { csvRow, SANDBOX_STATEMENT_COLUMNS } from '@app/audit';

interface Row {
  type: 'payment' | 'refund' | 'transfer';
  reference: string;
  provider_reference: string;
  order_id: string | null;
  amount: string;
  /** How it ends, if it has (the sandbox fixes the ending when the operation is made). */
  outcome: 'succeeded' | 'failed' | 'never';
  created_at: Date;
  /** When it ends; null while a push waits for a code or forever. */
  ends_at: Date | null;
}

/**
 * The sandbox's statement for an Africa/Addis_Ababa day, from its own books (sandbox_payments,
 * sandbox_refunds, sandbox_transfers), as a provider's settlement file: every operation that ended
 * that day (success or failed, at the time it ended), and every one made that day that has not
 * ended by now (pending). Amounts are gross, in birr with two decimals; the sandbox charges no fee.
 */
export async function sandboxStatement(db: SqlExecutor, day: string, now = new Date()): Promise<string> {
  const { from, to } = addisDay(day);
  const rows = await db.query<Row>(
    `SELECT 'payment' AS type, attempt_id AS reference, provider_reference, order_id, amount::text AS amount, outcome, created_at, answer_at AS ends_at
       FROM sandbox_payments WHERE (answer_at >= $1 AND answer_at < $2) OR (created_at >= $1 AND created_at < $2)
     UNION ALL
     SELECT 'refund', refund_id, external_reference_id, order_id, amount::text, 'succeeded', created_at, settles_at
       FROM sandbox_refunds WHERE (settles_at >= $1 AND settles_at < $2) OR (created_at >= $1 AND created_at < $2)
     UNION ALL
     SELECT 'transfer', reference, external_reference_id, NULL, amount::text, outcome, created_at, settles_at
       FROM sandbox_transfers WHERE (settles_at >= $1 AND settles_at < $2) OR (created_at >= $1 AND created_at < $2)`,
    [from, to],
  );
  const lines = rows
    .map((row) => {
      const endsAt = row.ends_at ? new Date(row.ends_at) : undefined;
      const ended = row.outcome !== 'never' && endsAt !== undefined && endsAt <= now;
      return { row, at: ended ? endsAt : new Date(row.created_at), status: !ended ? 'pending' : row.outcome === 'succeeded' ? 'success' : 'failed' };
    })
    .filter(({ at }) => at >= from && at < to)
    .sort((a, b) => a.at.getTime() - b.at.getTime() || a.row.provider_reference.localeCompare(b.row.provider_reference));
  const body = lines.map(({ row, at, status }) =>
    csvRow([addisTime(at), row.type, status, formatEtbFixed(Number(row.amount) as Santim), '0.00', 'ETB', row.reference, row.provider_reference, row.order_id ?? '']),
  );
  return csvRow(SANDBOX_STATEMENT_COLUMNS) + body.join('');
}
