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
  /** Ours, sent as the refund's `reference`; a refund Chapa failed is asked for again under the next one. */
  reference: string;
  /** How many references this refund has had. */
  attempt: number;
  /** Chapa's id of the refund, from its answer: unset while no answer has said it. */
  refId?: string;
  /** How many times `reference` was claimed to be sent since Chapa last refused it: above 0, Chapa may have it. */
  sends: number;
  /** A job claimed `reference` and may be waiting for Chapa's answer now. */
  held: boolean;
}

interface RefundRow {
  refund_id: string;
  reference: string;
  attempt: number;
  ref_id: string | null;
  sends: number;
  held: boolean;
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
    const [row] = await this.db.query<RefundRow>(
      `SELECT refund_id, reference, attempt, ref_id, sends, coalesce(claimed_until > now(), false) AS held FROM chapa_refunds WHERE refund_id = $1`,
      [refundId],
    );
    return (
      row && {
        refundId: row.refund_id,
        reference: row.reference,
        attempt: Number(row.attempt),
        ...(row.ref_id === null ? {} : { refId: row.ref_id }),
        sends: Number(row.sends),
        held: row.held,
      }
    );
  }

  /**
   * Claims `reference` for one send, held for `holdMs`: granted when the refund has no record, when its
   * previous reference was taken by Chapa (and failed: the caller asked), or when the same reference is
   * neither answered nor held. Answers how many sends of the reference that makes (1: none before it
   * can have reached Chapa), or undefined when another job holds it or it was answered meanwhile.
   */
  async claimRefund(claim: { refundId: string; attempt: number; reference: string }, holdMs: number): Promise<number | undefined> {
    const [row] = await this.db.query<{ sends: number }>(
      `INSERT INTO chapa_refunds (refund_id, reference, attempt, ref_id, sends, claimed_until)
       VALUES ($1, $2, $3, NULL, 1, now() + $4::double precision * interval '1 millisecond')
       ON CONFLICT (refund_id) DO UPDATE SET
         reference = EXCLUDED.reference, attempt = EXCLUDED.attempt, ref_id = NULL, claimed_until = EXCLUDED.claimed_until,
         sends = CASE WHEN chapa_refunds.attempt = EXCLUDED.attempt THEN chapa_refunds.sends + 1 ELSE 1 END
       WHERE (chapa_refunds.attempt < EXCLUDED.attempt AND chapa_refunds.ref_id IS NOT NULL)
          OR (chapa_refunds.reference = EXCLUDED.reference AND chapa_refunds.ref_id IS NULL
              AND (chapa_refunds.claimed_until IS NULL OR chapa_refunds.claimed_until <= now()))
       RETURNING sends`,
      [claim.refundId, claim.reference, claim.attempt, holdMs],
    );
    return row && Number(row.sends);
  }

  /** Chapa took the refund sent under `reference` and named it `refId`. */
  async recordRefundTaken(refundId: string, reference: string, refId: string): Promise<void> {
    await this.db.query(`UPDATE chapa_refunds SET ref_id = $3, claimed_until = NULL WHERE refund_id = $1 AND reference = $2`, [refundId, reference, refId]);
  }

  /** Chapa refused `reference` when nothing sent before could have reached it: the reference is unused, and free to send again. */
  async recordRefundRefused(refundId: string, reference: string): Promise<void> {
    await this.db.query(`UPDATE chapa_refunds SET sends = 0, claimed_until = NULL WHERE refund_id = $1 AND reference = $2 AND ref_id IS NULL`, [
      refundId,
      reference,
    ]);
  }

  /** The send's answer is unknown (lost, or one without Chapa's id): the claim is let go, so the next ask need not wait for it to lapse. */
  async releaseRefund(refundId: string, reference: string): Promise<void> {
    await this.db.query(`UPDATE chapa_refunds SET claimed_until = NULL WHERE refund_id = $1 AND reference = $2 AND ref_id IS NULL`, [refundId, reference]);
  }
}
