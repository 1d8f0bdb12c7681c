import type { SqlExecutor } from '@app/database';

export interface ChapaCharge {
  txRef: string;
  method: string;
  otpRequired: boolean;
  /** Unset when the charge was found at Chapa after a crash lost its answer. */
  requestId?: string;
}

export interface ChapaRefundRecord {
  refundId: string;
  refId: string;
  /** How many times Chapa was asked for this refund (a failed one is asked again under a new reference). */
  attempt: number;
}

/** The adapter's durable memory of its requests (chapa.migrations.ts). */
export class ChapaRecords {
  constructor(private readonly db: SqlExecutor) {}

  async charge(txRef: string): Promise<ChapaCharge | undefined> {
    const [row] = await this.db.query<{ tx_ref: string; method: string; otp_required: boolean; request_id: string | null }>(
      `SELECT tx_ref, method, otp_required, request_id FROM chapa_charges WHERE tx_ref = $1`,
      [txRef],
    );
    return row && { txRef: row.tx_ref, method: row.method, otpRequired: row.otp_required, requestId: row.request_id ?? undefined };
  }

  /** Keeps the first record of a charge: a push repeated concurrently answers with the one on record. */
  async recordCharge(charge: ChapaCharge): Promise<ChapaCharge> {
    await this.db.query(
      `INSERT INTO chapa_charges (tx_ref, method, otp_required, request_id) VALUES ($1, $2, $3, $4) ON CONFLICT (tx_ref) DO NOTHING`,
      [charge.txRef, charge.method, charge.otpRequired, charge.requestId ?? null],
    );
    return (await this.charge(charge.txRef))!;
  }

  async refund(refundId: string): Promise<ChapaRefundRecord | undefined> {
    const [row] = await this.db.query<{ refund_id: string; ref_id: string; attempt: number }>(
      `SELECT refund_id, ref_id, attempt FROM chapa_refunds WHERE refund_id = $1`,
      [refundId],
    );
    return row && { refundId: row.refund_id, refId: row.ref_id, attempt: Number(row.attempt) };
  }

  async recordRefund(refund: ChapaRefundRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO chapa_refunds (refund_id, ref_id, attempt) VALUES ($1, $2, $3)
       ON CONFLICT (refund_id) DO UPDATE SET ref_id = EXCLUDED.ref_id, attempt = EXCLUDED.attempt WHERE chapa_refunds.attempt < EXCLUDED.attempt`,
      [refund.refundId, refund.refId, refund.attempt],
    );
  }
}
