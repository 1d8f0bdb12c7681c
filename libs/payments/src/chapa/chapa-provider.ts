import type { SqlExecutor } from '@app/database';
import { formatEtb, parseEtb } from '@app/domain';
import {
  type PaymentProvider,
  type PaymentStatus,
  ProviderRejected,
  type PushAccepted,
  type PushRequest,
  type ReceivedNotification,
  type RefundRequest,
  type RefundStatus,
  type TransferRequest,
  type TransferStatus,
} from '../payment-provider.port';
import { ANSWER_TIMEOUT_MS, ChapaApi, ChapaRefusal } from './chapa-api';
import { etbNumberOf } from './chapa-amounts';
import { encryptForChapa } from './chapa-encryption';
import { CHAPA_METHODS } from './chapa-methods';
import { readChapaNotification } from './chapa-notification';
import { type ChapaCharge, ChapaRecords, type ChapaRefundRecord } from './chapa-records';
import { localPhone, orderIdOfTxRef, refundReferenceFor, txRefFor } from './chapa-references';

export interface ChapaOptions {
  db: SqlExecutor;
  secretKey: string;
  encryptionKey: string;
  webhookSecret: string;
  baseUrl: string;
}

/** `data` of a Direct Charge's answer (https://developer.chapa.co/charge/initiate-payments). */
interface ChargeData {
  auth_type?: string;
  requestID?: string;
}

/** `data` of a verified transaction (https://developer.chapa.co/integrations/verify-payments). */
interface TransactionData {
  status?: string;
  amount?: unknown;
  currency?: string;
  reference?: string;
  method?: string;
  payment_method?: string;
  created_at?: string;
  updated_at?: string;
}

/** `data` of a verified transfer (https://developer.chapa.co/transfer/verify-transfers). */
interface TransferData {
  status?: string;
  chapa_reference?: string;
  created_at?: string;
  updated_at?: string;
}

/** `data` of a refund and of its verification (https://developer.chapa.co/refund). */
interface RefundData {
  ref_id?: string;
  status?: string;
  updated_at?: string;
}

const FAILED = new Set(['failed', 'cancelled', 'expired']);

/**
 * How long a refund's claim is held: longer than a send can wait for its answer (a connection, the
 * headers, the body), so a claim still held is a send that may still be answered, and one that lapsed
 * is a send whose job died.
 */
const REFUND_CLAIM_MS = 4 * ANSWER_TIMEOUT_MS;

const instantOf = (stamp: string | undefined): string => {
  const parsed = stamp === undefined ? Number.NaN : Date.parse(stamp);
  return Number.isNaN(parsed) ? new Date().toISOString() : new Date(parsed).toISOString();
};

const accepted = (charge: ChapaCharge): PushAccepted => ({ providerReference: charge.txRef, otpRequired: charge.otpRequired });

/**
 * Chapa's Direct Charge: a push to the customer's wallet (`POST /charges?type=<method>`), a
 * one-time code where the wallet asks for one (`POST /validate`), outcomes by signed webhook and
 * by `GET /transaction/verify/<tx_ref>`, refunds by `POST /refund/<reference>`. Our `tx_ref` is
 * derived from the attempt, so the push is the provider reference and a repeated push is found,
 * never made twice.
 */
export class ChapaProvider implements PaymentProvider {
  readonly name = 'chapa';
  readonly methods = CHAPA_METHODS;
  private readonly api: ChapaApi;
  private readonly records: ChapaRecords;

  constructor(private readonly options: ChapaOptions) {
    this.api = new ChapaApi(options.baseUrl, options.secretKey);
    this.records = new ChapaRecords(options.db);
  }

  readNotification(received: ReceivedNotification) {
    return readChapaNotification(received, this.options.webhookSecret);
  }

  async initiatePush(request: PushRequest): Promise<PushAccepted> {
    const txRef = txRefFor(request.orderId, request.attemptId);
    const known = await this.records.charge(txRef);
    if (known) return accepted(known);
    const method = this.methods.find((m) => m.id === request.method);
    if (!method) throw new ProviderRejected('METHOD_UNKNOWN', `Chapa has no method ${request.method}`);
    const [firstName, ...rest] = request.customer.name.trim().split(/\s+/);
    try {
      const answer = await this.api.post<ChargeData>(`/charges?type=${encodeURIComponent(method.id)}`, {
        amount: formatEtb(request.amount),
        currency: 'ETB',
        tx_ref: txRef,
        mobile: localPhone(request.phone),
        first_name: firstName,
        ...(rest.length > 0 ? { last_name: rest.join(' ') } : {}),
        ...(request.customer.email ? { email: request.customer.email } : {}),
      });
      const otpRequired = answer.data?.auth_type === 'otp';
      return accepted(await this.records.recordCharge({ txRef, method: method.id, otpRequired, requestId: answer.data?.requestID }));
    } catch (error) {
      if (!(error instanceof ChapaRefusal)) throw error;
      // Chapa refuses a tx_ref used before: the push was made and a crash lost its answer. Otherwise it refused this push.
      if ((await this.verify(txRef)).state === 'unknown') throw new ProviderRejected('PUSH_REFUSED', `Chapa refused the payment request: ${error.message}`);
      return accepted(await this.records.recordCharge({ txRef, method: method.id, otpRequired: method.otpRequired }));
    }
  }

  async confirmOtp(orderId: string, providerReference: string, otp: string): Promise<void> {
    const charge = await this.records.charge(providerReference);
    if (!charge || orderIdOfTxRef(charge.txRef) !== orderId || !charge.otpRequired || !charge.requestId) {
      throw new ProviderRejected('UNKNOWN_PUSH', 'No payment request is waiting for a code');
    }
    try {
      await this.api.post(`/validate?type=${encodeURIComponent(charge.method)}`, {
        reference: charge.txRef,
        client: encryptForChapa(this.options.encryptionKey, { requestID: charge.requestId, otp }),
      });
    } catch (error) {
      if (error instanceof ChapaRefusal) throw new ProviderRejected('INVALID_OTP', 'The code was not accepted');
      throw error;
    }
  }

  paymentStatus(attempt: { providerReference: string }): Promise<PaymentStatus> {
    return this.verify(attempt.providerReference);
  }

  /**
   * Claimed before it is sent (chapa-records.ts), so one job at a time sends a refund and every job
   * knows the reference it went under. A refund on record is asked about first; one Chapa failed is
   * asked for again under the next reference.
   */
  async refund(request: RefundRequest): Promise<RefundStatus> {
    const record = await this.records.refund(request.refundId);
    let attempt = 1;
    if (record) {
      const status = await this.refundStatusOf(record);
      if (status.state === 'failed') attempt = record.attempt + 1;
      else if (status.state === 'unknown' && !record.refId) attempt = record.attempt;
      else return status;
    }
    const reference = refundReferenceFor(request.refundId, attempt);
    const sends = await this.records.claimRefund({ refundId: request.refundId, attempt, reference }, REFUND_CLAIM_MS);
    // Another job claimed it first: it sends the refund, and a later ask reads the outcome.
    if (sends === undefined) return { state: 'pending' };
    return this.sendRefund(request, reference, sends > 1);
  }

  async refundStatus(query: { refundId: string }): Promise<RefundStatus> {
    const record = await this.records.refund(query.refundId);
    return record ? this.refundStatusOf(record) : { state: 'unknown' };
  }

  /** https://developer.chapa.co/refund: `POST /v1/refund/<payment reference>`, under our `reference`, "unique within your business". */
  private async sendRefund(request: RefundRequest, reference: string, sentBefore: boolean): Promise<RefundStatus> {
    let data: RefundData | undefined;
    try {
      ({ data } = await this.api.post<RefundData>(`/refund/${encodeURIComponent(request.paymentReferenceId)}`, {
        reason: `Refund ${request.refundId}`,
        amount: formatEtb(request.amount),
        reference,
        meta: { refund_id: request.refundId },
      }));
    } catch (error) {
      if (!(error instanceof ChapaRefusal)) {
        // Chapa may have taken it: the next ask looks for it, and sends it again under the same reference.
        await this.records.releaseRefund(request.refundId, reference);
        throw error;
      }
      if (sentBefore) {
        // An earlier send of this reference may have reached Chapa, which refuses a reference it has
        // seen ("Refund reference has been used before"): the refund exists. Its outcome comes by its
        // webhook or a later ask, never as a refusal.
        await this.records.releaseRefund(request.refundId, reference);
        return { state: 'pending' };
      }
      await this.records.recordRefundRefused(request.refundId, reference);
      throw new ProviderRejected('REFUND_REJECTED', `Chapa refused the refund: ${error.message}`);
    }
    if (!data?.ref_id) {
      await this.records.releaseRefund(request.refundId, reference);
      throw new Error('Chapa accepted a refund without its ref_id');
    }
    await this.records.recordRefundTaken(request.refundId, reference, data.ref_id);
    return refundStatusOf(data.ref_id, data);
  }

  /**
   * A refund on record: verified by Chapa's `ref_id` when an answer gave it. A reference sent whose
   * answer was lost is looked up by our reference (the verify endpoint takes "the reference of the
   * refund"; docs/guides/chapa.md: that it takes ours is verified against the simulator only); not found there, it
   * is pending while its claim is held, and otherwise unknown, so it is sent again under that reference.
   */
  private async refundStatusOf(record: ChapaRefundRecord): Promise<RefundStatus> {
    if (record.refId) return this.verifyRefund(record.refId);
    if (record.sends > 0) {
      const found = await this.findRefund(record.reference);
      if (found) {
        await this.records.recordRefundTaken(record.refundId, record.reference, found.refId);
        return found.status;
      }
    }
    return record.held ? { state: 'pending' } : { state: 'unknown' };
  }

  /**
   * `POST /transfers` (https://developer.chapa.co/transfer/transfers): to the account at the bank whose
   * Chapa code is the destination's institution (telebirr and the other wallets have bank codes too),
   * under our reference, which `GET /transfers/verify/<reference>` answers about.
   */
  async transfer(request: TransferRequest): Promise<TransferStatus> {
    const known = await this.transferStatus(request.reference);
    if (known.state !== 'unknown') return known;
    try {
      await this.api.post('/transfers', {
        account_name: request.destination.holderName,
        account_number: request.destination.accountNumber,
        amount: formatEtb(request.amount),
        currency: 'ETB',
        reference: request.reference,
        bank_code: request.destination.institution,
      });
    } catch (error) {
      if (!(error instanceof ChapaRefusal)) throw error;
      // Chapa refuses a reference it has seen ("Transfer reference has been used before"): another
      // attempt at this very payout made the transfer meanwhile, and its status is the answer.
      const made = await this.transferStatus(request.reference);
      if (made.state !== 'unknown') return made;
      throw new ProviderRejected('TRANSFER_REFUSED', `Chapa refused the transfer: ${error.message}`);
    }
    return this.transferStatus(request.reference);
  }

  async transferStatus(reference: string): Promise<TransferStatus> {
    let data: TransferData | undefined;
    try {
      ({ data } = await this.api.get<TransferData>(`/transfers/verify/${encodeURIComponent(reference)}`));
    } catch (error) {
      if (error instanceof ChapaRefusal && (error.statusCode === 400 || error.statusCode === 404)) return { state: 'unknown' };
      throw error;
    }
    if (!data) return { state: 'unknown' };
    const at = instantOf(data.updated_at ?? data.created_at);
    if (data.status === 'success') return { state: 'succeeded', externalReferenceId: data.chapa_reference ?? reference, at };
    if (data.status === 'failed' || data.status === 'reverted') return { state: 'failed', reason: data.status.toUpperCase(), at };
    return { state: 'pending' };
  }

  private async verify(txRef: string): Promise<PaymentStatus> {
    let data: TransactionData | undefined;
    try {
      ({ data } = await this.api.get<TransactionData>(`/transaction/verify/${encodeURIComponent(txRef)}`));
    } catch (error) {
      // "Invalid transaction or Transaction not found" (https://developer.chapa.co/api-reference/error-codes).
      if (error instanceof ChapaRefusal && (error.statusCode === 400 || error.statusCode === 404)) return { state: 'unknown' };
      throw error;
    }
    if (!data) return { state: 'unknown' };
    const at = instantOf(data.updated_at ?? data.created_at);
    if (data.status === 'success') {
      if (!data.reference) throw new Error('Chapa verified a payment without its reference');
      return {
        state: 'succeeded',
        externalReferenceId: data.reference,
        amount: parseEtb(etbNumberOf(data.amount, 'verified amount'), 'verified amount'),
        ...(data.currency ? { currency: data.currency } : {}),
        paymentType: (data.payment_method ?? data.method ?? 'chapa').toUpperCase(),
        at,
      };
    }
    if (data.status && FAILED.has(data.status)) return { state: 'failed', externalReferenceId: data.reference, reason: data.status === 'failed' ? 'DECLINED' : data.status.toUpperCase(), at };
    return { state: 'pending' };
  }

  /** https://developer.chapa.co/refund: `GET /v1/refund/<ref_id>/verify`. */
  private async verifyRefund(refId: string): Promise<RefundStatus> {
    return (await this.findRefund(refId))?.status ?? { state: 'unknown' };
  }

  private async findRefund(reference: string): Promise<{ refId: string; status: RefundStatus } | undefined> {
    let data: RefundData | undefined;
    try {
      ({ data } = await this.api.get<RefundData>(`/refund/${encodeURIComponent(reference)}/verify`));
    } catch (error) {
      if (error instanceof ChapaRefusal && (error.statusCode === 400 || error.statusCode === 404)) return undefined;
      throw error;
    }
    const refId = data?.ref_id ?? reference;
    return { refId, status: refundStatusOf(refId, data) };
  }
}

function refundStatusOf(refId: string, data: RefundData | undefined): RefundStatus {
  const at = instantOf(data?.updated_at);
  if (data?.status === 'success' || data?.status === 'refunded') return { state: 'succeeded', externalReferenceId: refId, at };
  if (data?.status === 'failed') return { state: 'failed', reason: 'REFUND_FAILED', at };
  return { state: 'pending' };
}
