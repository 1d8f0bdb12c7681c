import type { Santim } from '../shared/money';
import type { PayoutSchedule } from './payout-schedule';
import type { SettingsInForce } from './payout-settings.decider';

/**
 * Where a merchant's payouts go. The account number itself is a secret kept encrypted outside the
 * log (like a webhook secret); the log keeps what a person may see: the last digits.
 */
export interface PayoutDestination {
  kind: 'bank' | 'wallet';
  /** A bank's code, or the wallet (`telebirr`, `mpesa`, …). */
  institution: string;
  holderName: string;
  /** `••••1234`. */
  accountMask: string;
  /** Where the sealed number is kept (never the number itself). */
  accountRef: string;
  /** A keyed, irreversible fingerprint of the number: the same account submitted again is no change. */
  accountFingerprint: string;
}

/**
 * A movement of the merchant's payable account that a payout can settle: the ledger entry of a
 * release, a paid order or a refund of one, named by the event that caused it. `amount` is signed:
 * money in (a release) positive, money out (an order refunded from the payable) negative.
 */
export interface PayableMovement {
  eventId: string;
  amount: number;
}

/** How a merchant is paid out: when without asking, from what amount, and where its payout callbacks go. */
export interface PayoutSettings {
  schedule: PayoutSchedule;
  /** No payout, asked for or scheduled, of less than this. */
  minimumAmount: Santim;
  /** Where PAYOUT_PAID and PAYOUT_FAILED callbacks go; null: none are sent. */
  callbackUrl: string | null;
}

export type PayoutEvent =
  | { type: 'PayoutDestinationSet'; data: { merchantId: string; version: number; destination: PayoutDestination; setAt: string } }
  /**
   * A new version of the settings; the periods and payouts after it follow it. In the payout account's
   * stream before the settings had one of their own (payout-settings.decider.ts), which writes `scheduleSetAt`.
   */
  | { type: 'PayoutSettingsChanged'; data: { merchantId: string; version: number; settings: PayoutSettings; changedAt: string; scheduleSetAt?: string } }
  | {
      type: 'PayoutRequested';
      data: {
        merchantId: string;
        payoutId: string;
        amount: Santim;
        /** The destination version it is paid to: a later change takes effect for the next payout. */
        destinationVersion: number;
        /** Exactly what it settles: these movements sum to `amount`. */
        settles: PayableMovement[];
        trigger: 'on-demand' | 'schedule';
        /** The schedule's period it pays (scheduled payouts only). */
        period?: string;
        requestedAt: string;
      };
    }
  | { type: 'PayoutSent'; data: { merchantId: string; payoutId: string; providerReference: string; sentAt: string } }
  /** `callbackUrl`: where its callback goes, as the settings said when it was paid (absent before the settings had a stream of their own: the account's). */
  | { type: 'PayoutPaid'; data: { merchantId: string; payoutId: string; amount: Santim; externalReferenceId: string; paidAt: string; callbackUrl?: string | null } }
  /** The money is the merchant's payable again, and its movements can be paid out by a later payout. */
  | { type: 'PayoutFailed'; data: { merchantId: string; payoutId: string; amount: Santim; reason: string; failedAt: string; callbackUrl?: string | null } };

export type PayoutCommand =
  | { type: 'SetPayoutDestination'; data: { merchantId: string; destination: PayoutDestination; at: string } }
  /**
   * `movements`: every movement of the merchant's payable account the caller's ledger knows of (it may
   * lag, and may repeat what is already settled: only what no payout in flight or paid settles counts).
   * A scheduled one names the period it is for (`period`), and its id derives from it (scheduledPayoutId).
   * `settings`: those in force, from their own stream (none there: the account's own, from before it).
   */
  | {
      type: 'RequestPayout';
      data: { merchantId: string; payoutId: string; movements: PayableMovement[]; settings?: SettingsInForce; at: string } & ({ trigger: 'on-demand' } | { trigger: 'schedule'; period: string });
    }
  | { type: 'RecordPayoutSent'; data: { payoutId: string; providerReference: string; at: string } }
  | { type: 'RecordPayoutPaid'; data: { payoutId: string; externalReferenceId: string; at: string; callbackUrl: string | null } }
  | { type: 'RecordPayoutFailed'; data: { payoutId: string; reason: string; at: string; callbackUrl: string | null } };
