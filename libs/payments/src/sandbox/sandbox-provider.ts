import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'undici';
import { toEtbNumber } from '@app/domain';
import { PROVIDER_SIGNATURE_HEADER, PROVIDER_TIMESTAMP_HEADER, signNotification } from '../notification-signature';
import {
  type PaymentProvider,
  type ProviderNotification,
  ProviderRejected,
  type PushAccepted,
  type PushRequest,
  type RefundRequest,
} from '../payment-provider.port';
import { SANDBOX_OTP, SANDBOX_PHONES } from './sandbox-phones';

/** Deliveries of one notification before the sandbox gives up, and the base wait between them. */
const NOTIFY_ATTEMPTS = 8;
const NOTIFY_RETRY_MS = 20;

export interface SandboxOptions {
  notificationSecret: Buffer;
  /** Where notifications are posted, resolved when one is sent (the port is known only after listen). */
  notifyBaseUrl: () => string;
  /** How long the simulated customer and network take to answer. */
  delayMs: number;
  onDeliveryError?: (error: unknown) => void;
}

interface PendingPush {
  request: PushRequest;
  providerReference: string;
}

/**
 * A stand-in for a mobile-money provider: it accepts pushes and refunds at once and reports their
 * outcome a moment later by POSTing a signed notification, as a real provider would. What it has
 * not reported yet lives in memory: a restart loses it, as a provider outage would (orders then expire).
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  private readonly pushes = new Map<string, PendingPush>();
  private readonly refunds = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: SandboxOptions) {}

  get notificationSecret(): Buffer {
    return this.options.notificationSecret;
  }

  async initiatePush(request: PushRequest): Promise<PushAccepted> {
    const providerReference = `SBX-${randomBytes(8).toString('hex').toUpperCase()}`;
    this.pushes.set(providerReference, { request, providerReference });
    const otpRequired = request.phone === SANDBOX_PHONES.asksForOtp;
    if (!otpRequired) this.later(() => this.answerPush(providerReference));
    return { providerReference, otpRequired };
  }

  async confirmOtp(orderId: string, providerReference: string, otp: string): Promise<void> {
    const push = this.pushes.get(providerReference);
    if (!push || push.request.orderId !== orderId) throw new ProviderRejected('UNKNOWN_PUSH', 'No payment request is waiting for a code');
    if (otp !== SANDBOX_OTP) throw new ProviderRejected('INVALID_OTP', 'The code is not correct');
    this.later(() => this.answerPush(providerReference));
  }

  async refund(request: RefundRequest): Promise<void> {
    if (request.phone === SANDBOX_PHONES.refundsRejected) {
      throw new ProviderRejected('REFUND_REJECTED', 'The provider could not refund this wallet right now');
    }
    if (this.refunds.has(request.refundId)) return;
    this.refunds.add(request.refundId);
    this.later(() =>
      this.notify({
        type: 'refund.succeeded',
        orderId: request.orderId,
        refundId: request.refundId,
        externalReferenceId: `SBX-R-${randomBytes(6).toString('hex').toUpperCase()}`,
        amount: toEtbNumber(request.amount),
      }),
    );
  }

  /** Settles a payment at once, as the provider would (the sandbox `complete` endpoint). */
  async settle(orderId: string, amount: number, outcome: 'PAID' | 'FAILED'): Promise<void> {
    const attemptId = `sandbox-${randomUUID()}`;
    const externalReferenceId = `SBX-${randomBytes(8).toString('hex').toUpperCase()}`;
    await this.notify(
      outcome === 'PAID'
        ? { type: 'payment.succeeded', orderId, attemptId, externalReferenceId, amount, paymentType: 'USSD_PUSH' }
        : { type: 'payment.failed', orderId, attemptId, externalReferenceId, reason: 'DECLINED' },
    );
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async answerPush(providerReference: string): Promise<void> {
    const push = this.pushes.get(providerReference);
    if (!push) return;
    this.pushes.delete(providerReference);
    const { request } = push;
    if (request.phone === SANDBOX_PHONES.neverAnswers) return;
    const common = { orderId: request.orderId, attemptId: request.attemptId, externalReferenceId: providerReference };
    await this.notify(
      request.phone === SANDBOX_PHONES.insufficientFunds
        ? { ...common, type: 'payment.failed', reason: 'INSUFFICIENT_FUNDS' }
        : { ...common, type: 'payment.succeeded', amount: toEtbNumber(request.amount), paymentType: 'USSD_PUSH' },
    );
  }

  private later(work: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work().catch((error: unknown) => this.options.onDeliveryError?.(error));
    }, this.options.delayMs);
    this.timers.add(timer);
  }

  /**
   * Posts a signed notification. Like a real provider, it delivers the same notification again when
   * the receiver answers 409 (the order changed concurrently) or 5xx; applying it is idempotent.
   */
  private async notify(notification: Omit<ProviderNotification, 'id' | 'occurredAt'>): Promise<void> {
    const body = JSON.stringify({ id: `ntf_${randomUUID()}`, occurredAt: new Date().toISOString(), ...notification });
    for (let attempt = 1; ; attempt++) {
      const timestamp = String(Date.now());
      // undici's own request: the global fetch (WHATWG streams over the same client) costs several times the CPU.
      const response = await request(`${this.options.notifyBaseUrl()}/v1/providers/sandbox/notifications`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [PROVIDER_TIMESTAMP_HEADER]: timestamp,
          [PROVIDER_SIGNATURE_HEADER]: signNotification(this.options.notificationSecret, timestamp, body),
        },
        body,
      });
      const text = await response.body.text();
      if (response.statusCode >= 200 && response.statusCode < 300) return;
      const retriable = response.statusCode === 409 || response.statusCode >= 500;
      if (!retriable || attempt >= NOTIFY_ATTEMPTS) throw new Error(`notification refused: ${response.statusCode} ${text}`);
      await new Promise((resolve) => setTimeout(resolve, NOTIFY_RETRY_MS * attempt + Math.random() * NOTIFY_RETRY_MS));
    }
  }
}
