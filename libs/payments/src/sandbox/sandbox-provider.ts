import { randomBytes, randomUUID } from 'node:crypto';
import type { SqlExecutor } from '@app/database';
import { toEtbNumber } from '@app/domain';
import {
  type PaymentMethod,
  type PaymentProvider,
  type PaymentStatus,
  type ProviderNotification,
  ProviderRejected,
  type PushAccepted,
  type PushRequest,
  type RefundRequest,
  type ReceivedNotification,
  type RefundStatus,
  type TransferRequest,
  type TransferStatus,
} from '../payment-provider.port';
import { readSandboxNotification } from './sandbox-notification';
import { type SandboxPayment, SandboxBooks, type SandboxRefund, type SandboxTransfer, SandboxTransfers } from './sandbox-books';
import { SandboxNotifier } from './sandbox-notifier';
import { SANDBOX_OTP, SANDBOX_PHONES, SANDBOX_TRANSFER_ACCOUNTS } from './sandbox-phones';

export interface SandboxOptions {
  db: SqlExecutor;
  notificationSecret: Buffer;
  /** Where notifications are posted, resolved when one is sent (the port is known only after listen). */
  notifyBaseUrl: () => string;
  /** How long the simulated customer and network take to answer. */
  delayMs: number;
  onDeliveryError?: (error: unknown) => void;
}

const reference = (prefix: string) => `${prefix}-${randomBytes(8).toString('hex').toUpperCase()}`;

/** The sandbox's own test methods: a wallet that settles on the push, and one that asks for a code. */
export const SANDBOX_METHODS: readonly PaymentMethod[] = [
  { id: 'sandbox-ussd', name: 'Test wallet (USSD push)', otpRequired: false },
  { id: 'sandbox-otp', name: 'Test wallet that asks for a code', otpRequired: true },
];

/** How a push to this test phone ends (the table of test numbers in docs/guides/escrows.md); a method that asks for a code asks whatever the phone. */
function outcomeFor(phone: string, method: string): Pick<SandboxPayment, 'outcome' | 'reason' | 'otpRequired'> {
  if (phone === SANDBOX_PHONES.insufficientFunds) return { outcome: 'failed', reason: 'INSUFFICIENT_FUNDS', otpRequired: false };
  if (phone === SANDBOX_PHONES.neverAnswers) return { outcome: 'never', otpRequired: false };
  const otpByMethod = SANDBOX_METHODS.find((m) => m.id === method)?.otpRequired ?? false;
  return { outcome: 'succeeded', otpRequired: otpByMethod || phone === SANDBOX_PHONES.asksForOtp };
}

function paymentStatusOf(payment: SandboxPayment, now: Date): PaymentStatus {
  if (payment.outcome === 'never' || !payment.answerAt || payment.answerAt > now) return { state: 'pending' };
  const at = payment.answerAt.toISOString();
  return payment.outcome === 'succeeded'
    ? { state: 'succeeded', externalReferenceId: payment.providerReference, amount: payment.amount, paymentType: 'USSD_PUSH', at }
    : { state: 'failed', externalReferenceId: payment.providerReference, reason: payment.reason ?? 'FAILED', at };
}

/** A transfer under way says when it settles (the sandbox's delay after it was asked for), so a payout is followed up then, not at the reconciler's next question. */
function transferStatusOf(transfer: SandboxTransfer, now: Date): TransferStatus {
  if (transfer.settlesAt > now) return { state: 'pending', expectedAt: transfer.settlesAt.toISOString() };
  const at = transfer.settlesAt.toISOString();
  return transfer.outcome === 'succeeded' ? { state: 'succeeded', externalReferenceId: transfer.externalReferenceId, at } : { state: 'failed', reason: 'BOUNCED', at };
}

function refundStatusOf(refund: SandboxRefund, now: Date): RefundStatus {
  return refund.settlesAt > now ? { state: 'pending' } : { state: 'succeeded', externalReferenceId: refund.externalReferenceId, at: refund.settlesAt.toISOString() };
}

/**
 * A stand-in for a mobile-money provider that behaves like one: it accepts pushes and refunds at
 * once, reports their outcome a moment later as signed notifications (delivered again until
 * acknowledged), answers questions about any operation from its own durable books, and treats a
 * repeated request (same attempt id, same refund id) as the first one.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  readonly methods = SANDBOX_METHODS;
  private readonly books: SandboxBooks;
  private readonly transfers: SandboxTransfers;
  private readonly notifier: SandboxNotifier;

  constructor(private readonly options: SandboxOptions) {
    this.books = new SandboxBooks(options.db);
    this.transfers = new SandboxTransfers(options.db);
    this.notifier = new SandboxNotifier({ secret: options.notificationSecret, baseUrl: options.notifyBaseUrl, onDeliveryError: options.onDeliveryError });
  }

  /** The secret the sandbox signs its notifications with (tests sign their own with it). */
  get notificationSecret(): Buffer {
    return this.options.notificationSecret;
  }

  readNotification(received: ReceivedNotification) {
    return readSandboxNotification(received, this.options.notificationSecret);
  }

  async initiatePush(request: PushRequest): Promise<PushAccepted> {
    const ending = outcomeFor(request.phone, request.method);
    const answerAt = ending.otpRequired || ending.outcome === 'never' ? undefined : this.answerTime();
    const { payment, created } = await this.books.recordPush({
      attemptId: request.attemptId,
      providerReference: reference('SBX'),
      orderId: request.orderId,
      phone: request.phone,
      amount: request.amount,
      answerAt,
      ...ending,
    });
    if (created) this.notifyWhenAnswered(payment);
    return { providerReference: payment.providerReference, otpRequired: payment.otpRequired };
  }

  async confirmOtp(orderId: string, providerReference: string, otp: string): Promise<void> {
    const payment = await this.books.payment(providerReference);
    if (!payment || payment.orderId !== orderId || !payment.otpRequired) throw new ProviderRejected('UNKNOWN_PUSH', 'No payment request is waiting for a code');
    if (otp !== SANDBOX_OTP) throw new ProviderRejected('INVALID_OTP', 'The code is not correct');
    const answerAt = this.answerTime();
    if (await this.books.answerOtp(providerReference, answerAt)) this.notifyWhenAnswered({ ...payment, answerAt });
  }

  async paymentStatus(attempt: { providerReference: string }): Promise<PaymentStatus> {
    const payment = await this.books.payment(attempt.providerReference);
    return payment ? paymentStatusOf(payment, new Date()) : { state: 'unknown' };
  }

  async refund(request: RefundRequest): Promise<RefundStatus> {
    if (request.phone === SANDBOX_PHONES.refundsRejected) {
      throw new ProviderRejected('REFUND_REJECTED', 'The provider could not refund this wallet right now');
    }
    const { refund, created } = await this.books.recordRefund({
      refundId: request.refundId,
      orderId: request.orderId,
      amount: request.amount,
      externalReferenceId: reference('SBX-R'),
      settlesAt: this.answerTime(),
    });
    if (created) {
      this.notifier.later(refund.settlesAt, {
        type: 'refund.succeeded',
        orderId: refund.orderId,
        refundId: refund.refundId,
        externalReferenceId: refund.externalReferenceId,
        amount: toEtbNumber(refund.amount),
        occurredAt: refund.settlesAt.toISOString(),
      });
    }
    return refundStatusOf(refund, new Date());
  }

  async transfer(request: TransferRequest): Promise<TransferStatus> {
    if (request.destination.accountNumber === SANDBOX_TRANSFER_ACCOUNTS.refused) {
      throw new ProviderRejected('TRANSFER_REFUSED', 'The provider cannot pay this account');
    }
    const transfer = await this.transfers.record({
      reference: request.reference,
      amount: request.amount,
      externalReferenceId: reference('SBX-T'),
      outcome: request.destination.accountNumber === SANDBOX_TRANSFER_ACCOUNTS.bounces ? 'failed' : 'succeeded',
      settlesAt: this.answerTime(),
    });
    return transferStatusOf(transfer, new Date());
  }

  async transferStatus(transferReference: string): Promise<TransferStatus> {
    const transfer = await this.transfers.find(transferReference);
    return transfer ? transferStatusOf(transfer, new Date()) : { state: 'unknown' };
  }

  async refundStatus(query: { refundId: string }): Promise<RefundStatus> {
    const refund = await this.books.refund(query.refundId);
    return refund ? refundStatusOf(refund, new Date()) : { state: 'unknown' };
  }

  /**
   * Settles a payment at once, as the provider would (the sandbox `complete` endpoint), and answers
   * with the notification the provider reports it by: the caller, the service itself, applies it where
   * it is, rather than receiving it over HTTP from itself, and hands it back (`redeliver`) when that
   * fails. `attempt`: the push this settles, derived by the caller from the request's Idempotency-Key.
   * A retry of a settle whose answer was lost (recorded here, then the connection cut) finds the push
   * it made instead of charging the customer a second time, which our books would never hear of.
   */
  async settle(orderId: string, phone: string, amount: PushRequest['amount'], outcome: 'PAID' | 'FAILED', attempt: string = randomUUID()): Promise<ProviderNotification> {
    const { payment } = await this.books.recordPush({
      attemptId: `sandbox-${attempt}`,
      providerReference: reference('SBX'),
      orderId,
      phone,
      amount,
      otpRequired: false,
      outcome: outcome === 'PAID' ? 'succeeded' : 'failed',
      reason: outcome === 'PAID' ? undefined : 'DECLINED',
      answerAt: new Date(),
    });
    return this.notifier.stamped(this.paymentNotification(payment));
  }

  /** A settle's notification its caller could not apply: delivered as any unacknowledged one, later and until acknowledged. */
  redeliver(notification: ProviderNotification): void {
    this.notifier.redeliver(notification);
  }

  close(): void {
    this.notifier.close();
  }

  private answerTime(): Date {
    return new Date(Date.now() + this.options.delayMs);
  }

  private notifyWhenAnswered(payment: SandboxPayment): void {
    if (payment.outcome === 'never' || !payment.answerAt) return;
    this.notifier.later(payment.answerAt, this.paymentNotification(payment));
  }

  private paymentNotification(payment: SandboxPayment) {
    const common = { orderId: payment.orderId, attemptId: payment.attemptId, externalReferenceId: payment.providerReference, occurredAt: payment.answerAt?.toISOString() };
    return payment.outcome === 'succeeded'
      ? { ...common, type: 'payment.succeeded' as const, amount: toEtbNumber(payment.amount), paymentType: 'USSD_PUSH' }
      : { ...common, type: 'payment.failed' as const, reason: payment.reason ?? 'FAILED' };
  }
}
