import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { PROVIDER_SIGNATURE_HEADER, PROVIDER_TIMESTAMP_HEADER, signNotification } from '../notification-signature';
import type { ProviderNotification } from '../payment-provider.port';

/** Quick tries of one delivery: the receiver answered 409 (the order changed concurrently) or 5xx. */
const QUICK_ATTEMPTS = 8;
const QUICK_RETRY_MS = 20;
/** Then, like a real provider, later deliveries on a doubling wait (1 s … 60 s), for about ten minutes. */
const LATER_DELIVERIES = 14;
const FIRST_LATER_MS = 1_000;
const MAX_LATER_MS = 60_000;
/** An answer slower than this counts as none. */
const TIMEOUT_MS = 10_000;

export interface NotifierOptions {
  secret: Buffer;
  /** Where notifications are posted, resolved at each delivery (the port is known only after listen). */
  baseUrl: () => string;
  onDeliveryError?: (error: unknown) => void;
}

export type SandboxNotification = Omit<ProviderNotification, 'id' | 'occurredAt'> & { occurredAt?: string };

/**
 * Posts the sandbox's signed notifications and, as a real provider does, delivers a notification
 * again until it is acknowledged: at once on a 409 or 5xx, later on a connection error, a timeout
 * or any other refusal. Retries live in this process: one that dies takes them along, and the
 * reconciler, which asks the sandbox about every operation still open, makes up for them.
 */
export class SandboxNotifier {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly options: NotifierOptions) {}

  /** Delivers at `at` (now if past), retrying until acknowledged. */
  later(at: Date, notification: SandboxNotification): void {
    const body = this.bodyOf(notification);
    this.wait(Math.max(0, at.getTime() - Date.now()), () => this.deliverUntilAcknowledged(body, 0));
  }

  /** The notification as it is sent: with its id, and its time (now, when it names none). */
  stamped(notification: SandboxNotification): ProviderNotification {
    return { id: `ntf_${randomUUID()}`, ...notification, occurredAt: notification.occurredAt ?? new Date().toISOString() };
  }

  /** One whose first delivery was not acknowledged (applied where it was made, and failed there): delivered later, until acknowledged. */
  redeliver(notification: ProviderNotification): void {
    const body = JSON.stringify(notification);
    this.wait(FIRST_LATER_MS, () => this.deliverUntilAcknowledged(body, 1));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private bodyOf(notification: SandboxNotification): string {
    return JSON.stringify(this.stamped(notification));
  }

  private async deliverUntilAcknowledged(body: string, delivery: number): Promise<void> {
    if (await this.tryOnce(body)) return;
    if (delivery >= LATER_DELIVERIES) {
      this.options.onDeliveryError?.(new Error(`a notification was not acknowledged after ${delivery + 1} deliveries; giving up`));
      return;
    }
    const wait = Math.min(FIRST_LATER_MS * 2 ** delivery, MAX_LATER_MS);
    this.wait(wait, () => this.deliverUntilAcknowledged(body, delivery + 1));
  }

  private wait(ms: number, work: () => Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work().catch((error: unknown) => this.options.onDeliveryError?.(error));
    }, ms);
    this.timers.add(timer);
  }

  /** One delivery: a few quick tries on the answers that mean "busy"; false when it was not acknowledged. */
  private async tryOnce(body: string): Promise<boolean> {
    for (let attempt = 1; attempt <= QUICK_ATTEMPTS; attempt++) {
      let status: number;
      try {
        const timestamp = String(Date.now());
        // undici's own request: the global fetch (WHATWG streams over the same client) costs several times the CPU.
        const response = await request(`${this.options.baseUrl()}/v1/providers/sandbox/notifications`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [PROVIDER_TIMESTAMP_HEADER]: timestamp,
            [PROVIDER_SIGNATURE_HEADER]: signNotification(this.options.secret, timestamp, body),
          },
          body,
          headersTimeout: TIMEOUT_MS,
          bodyTimeout: TIMEOUT_MS,
        });
        await response.body.text();
        status = response.statusCode;
      } catch (error) {
        this.options.onDeliveryError?.(error);
        return false;
      }
      if (status >= 200 && status < 300) return true;
      if (status !== 409 && status < 500) {
        this.options.onDeliveryError?.(new Error(`notification refused: ${status}`));
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, QUICK_RETRY_MS * attempt + Math.random() * QUICK_RETRY_MS));
    }
    return false;
  }
}
