import type { SqlExecutor } from '@app/database';
import type { Santim } from '@app/domain';

/** A push as the sandbox recorded it: how it ends is fixed when it is made (by the test phone), and shown from answerAt. */
export interface SandboxPayment {
  attemptId: string;
  providerReference: string;
  orderId: string;
  phone: string;
  amount: Santim;
  otpRequired: boolean;
  outcome: 'succeeded' | 'failed' | 'never';
  reason?: string;
  /** When the customer answers; unset while waiting for a code or forever (never answers). */
  answerAt?: Date;
}

export interface SandboxRefund {
  refundId: string;
  orderId: string;
  amount: Santim;
  externalReferenceId: string;
  settlesAt: Date;
}

interface PaymentRow {
  attempt_id: string;
  provider_reference: string;
  order_id: string;
  phone: string;
  amount: string;
  otp_required: boolean;
  outcome: SandboxPayment['outcome'];
  reason: string | null;
  answer_at: Date | null;
}

interface RefundRow {
  refund_id: string;
  order_id: string;
  amount: string;
  external_reference_id: string;
  settles_at: Date;
}

const toPayment = (row: PaymentRow): SandboxPayment => ({
  attemptId: row.attempt_id,
  providerReference: row.provider_reference,
  orderId: row.order_id,
  phone: row.phone,
  amount: Number(row.amount) as Santim,
  otpRequired: row.otp_required,
  outcome: row.outcome,
  reason: row.reason ?? undefined,
  answerAt: row.answer_at ? new Date(row.answer_at) : undefined,
});

const toRefund = (row: RefundRow): SandboxRefund => ({
  refundId: row.refund_id,
  orderId: row.order_id,
  amount: Number(row.amount) as Santim,
  externalReferenceId: row.external_reference_id,
  settlesAt: new Date(row.settles_at),
});

/** The sandbox provider's durable record of pushes and refunds (sandbox.migrations.ts). */
export class SandboxBooks {
  constructor(private readonly db: SqlExecutor) {}

  /** Records a push unless one was made under this attempt id; either way answers with the push on record. */
  async recordPush(push: SandboxPayment): Promise<{ payment: SandboxPayment; created: boolean }> {
    const inserted = await this.db.query<PaymentRow>(
      `INSERT INTO sandbox_payments (attempt_id, provider_reference, order_id, phone, amount, otp_required, outcome, reason, answer_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (attempt_id) DO NOTHING RETURNING *`,
      [push.attemptId, push.providerReference, push.orderId, push.phone, push.amount, push.otpRequired, push.outcome, push.reason ?? null, push.answerAt ?? null],
    );
    if (inserted.length > 0) return { payment: toPayment(inserted[0]), created: true };
    const [existing] = await this.db.query<PaymentRow>(`SELECT * FROM sandbox_payments WHERE attempt_id = $1`, [push.attemptId]);
    return { payment: toPayment(existing), created: false };
  }

  async payment(providerReference: string): Promise<SandboxPayment | undefined> {
    const [row] = await this.db.query<PaymentRow>(`SELECT * FROM sandbox_payments WHERE provider_reference = $1`, [providerReference]);
    return row && toPayment(row);
  }

  /** The customer typed the right code: the push is answered at `answerAt`, once. */
  async answerOtp(providerReference: string, answerAt: Date): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE sandbox_payments SET answer_at = $2 WHERE provider_reference = $1 AND answer_at IS NULL RETURNING attempt_id`,
      [providerReference, answerAt],
    );
    return rows.length > 0;
  }

  async recordRefund(refund: SandboxRefund): Promise<{ refund: SandboxRefund; created: boolean }> {
    const inserted = await this.db.query<RefundRow>(
      `INSERT INTO sandbox_refunds (refund_id, order_id, amount, external_reference_id, settles_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (refund_id) DO NOTHING RETURNING *`,
      [refund.refundId, refund.orderId, refund.amount, refund.externalReferenceId, refund.settlesAt],
    );
    if (inserted.length > 0) return { refund: toRefund(inserted[0]), created: true };
    const existing = await this.refund(refund.refundId);
    return { refund: existing!, created: false };
  }

  async refund(refundId: string): Promise<SandboxRefund | undefined> {
    const [row] = await this.db.query<RefundRow>(`SELECT * FROM sandbox_refunds WHERE refund_id = $1`, [refundId]);
    return row && toRefund(row);
  }
}

export interface SandboxTransfer {
  reference: string;
  amount: Santim;
  externalReferenceId: string;
  outcome: 'succeeded' | 'failed';
  settlesAt: Date;
}

interface TransferRow {
  reference: string;
  amount: string;
  external_reference_id: string;
  outcome: SandboxTransfer['outcome'];
  settles_at: Date;
}

const toTransfer = (row: TransferRow): SandboxTransfer => ({
  reference: row.reference,
  amount: Number(row.amount) as Santim,
  externalReferenceId: row.external_reference_id,
  outcome: row.outcome,
  settlesAt: new Date(row.settles_at),
});

/** The sandbox's transfers, by our reference: a repeated request finds the first. */
export class SandboxTransfers {
  constructor(private readonly db: SqlExecutor) {}

  async record(transfer: SandboxTransfer): Promise<SandboxTransfer> {
    await this.db.query(
      `INSERT INTO sandbox_transfers (reference, amount, external_reference_id, outcome, settles_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (reference) DO NOTHING`,
      [transfer.reference, transfer.amount, transfer.externalReferenceId, transfer.outcome, transfer.settlesAt],
    );
    return (await this.find(transfer.reference))!;
  }

  async find(reference: string): Promise<SandboxTransfer | undefined> {
    const [row] = await this.db.query<TransferRow>(`SELECT * FROM sandbox_transfers WHERE reference = $1`, [reference]);
    return row && toTransfer(row);
  }
}
