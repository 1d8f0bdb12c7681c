import type { Santim } from '../shared/money';
import type { PayoutSchedule } from './payout-schedule';

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
  /**
   * The holding period: a credit to the payable becomes available for payout at the start of the Addis
   * Ababa day this many days after the day it was posted (payout-availability.ts). Absent in settings
   * changed before holding periods existed: 0, available at once.
   */
  payoutDelayDays?: number;
  /**
   * The rolling reserve: this percentage (a whole number, 0 to 100) of each credit to the payable, rounded
   * down to the santim, stays unavailable until the start of the Addis Ababa day `reserveDays` after
   * the day it was posted (payout-availability.ts creditKeptAt), beside the holding period. Absent in
   * settings changed before reserves existed: 0, none.
   */
  reservePercent?: number;
  reserveDays?: number;
}

export type PayoutEvent =
  | {
      type: 'PayoutDestinationSet';
      data: {
        merchantId: string;
        version: number;
        destination: PayoutDestination;
        setAt: string;
        /**
         * A seller account's change that holds its payouts (account-payability.ts `replacingHolds`): it
         * replaced a payable destination, or one still held. Absent on merchants' destinations and on
         * versions set before the rule, when every change after the first held (`holdsPayouts`).
         */
        holds?: boolean;
      };
    }
  /**
   * A new version of the settings; the periods and payouts after it follow it. In the payout account's
   * stream before the settings had one of their own (payout-settings.decider.ts), which writes `scheduleSetAt`.
   */
  | {
      type: 'PayoutSettingsChanged';
      data: {
        merchantId: string;
        version: number;
        settings: PayoutSettings;
        /** What this version changed, with the values before it (previousSettings); absent on changes recorded before it was kept. */
        previous?: Partial<PayoutSettings>;
        changedAt: string;
        scheduleSetAt?: string;
      };
    }
  | {
      type: 'PayoutRequested';
      data: {
        merchantId: string;
        payoutId: string;
        amount: Santim;
        /** The destination version it is paid to: a later change takes effect for the next payout. */
        destinationVersion: number;
        /**
         * The destination as that version named it (the number itself stays sealed outside the log), so
         * the payout is sent and told about without reading the merchant's destinations. Absent on a
         * payout of the merchant's payout account stream (`payouts-{merchantId}`), from before each payout had its own.
         */
        destination?: PayoutDestination;
        /** Exactly what it settles, summing to `amount`: only in the payout account stream, from before payouts settled a range of the ledger. */
        settles?: PayableMovement[];
        /**
         * The range of the merchant's payable it settles, as positions of the log (`commit-prepare`): the
         * movements after `after` (the merchant's previous payout's `through`; null for its first payout
         * of its own stream) up to `through`, the ledger's position when its amount, the payable's
         * balance, was read. Absent on a payout account stream's payouts, which list `settles` instead.
         */
        after?: string | null;
        through?: string;
        /**
         * The part of `amount` taken from the merchant's fees account (signed santim), the rest from its
         * payable: a payout takes both balances whole (docs/concepts/ledger.md). Absent: none, as on
         * every payout from before a platform's fees were paid out.
         */
        fees?: number;
        trigger: 'on-demand' | 'schedule';
        /** The schedule's period it pays (scheduled payouts only). */
        period?: string;
        requestedAt: string;
      };
    }
  /**
   * In the merchant's books (`payout-books-{merchantId}`), appended with each payout's request in one
   * append: the books' revision is the merchant's serialization point, so two payouts decided at once
   * cannot both read the same balance, and the last one names where the next one's range begins.
   */
  | { type: 'PayoutBooked'; data: { merchantId: string; payoutId: string; through: string } }
  /**
   * In the books of a transfer's source, appended with its TransferCreated in one append: a transfer
   * and a payout (or two transfers) decided at once in any processes cannot both spend the same
   * balance. `payoutsThrough` carries the last payout's `through` on (null: none booked yet), so the
   * books' last event still names where the next payout's range begins (payout-books.ts).
   */
  | { type: 'TransferBooked'; data: { merchantId: string; transferId: string; payoutsThrough: string | null } }
  /**
   * In the books of a closed account and of its platform, appended with its AccountClosed in one
   * append: a transfer to or from the account, a payout of it, and its closing are decided one after
   * the other, so that a closing never misses money that reached the account or left it meanwhile
   * (libs/payments/src/accounts/close-at-books.ts). `payoutsThrough` carries the books' last payout on, as TransferBooked does.
   */
  | { type: 'AccountClosureBooked'; data: { merchantId: string; accountId: string; payoutsThrough: string | null } }
  /**
   * In the books of the payee of a released allocation, appended with the escrow's EscrowRefundRequested
   * of its reversal in one append: a reversal and the payee's closing are decided one after the other
   * (libs/payments/src/escrows/reverse-allocation-at-books.ts). `payoutsThrough` as TransferBooked's.
   */
  | { type: 'AllocationReversalBooked'; data: { merchantId: string; escrowId: string; refundId: string; payoutsThrough: string | null } }
  /**
   * In the destination's stream, with the PayoutFailed of a payout to the destination's current
   * version: the schedule pauses until the merchant sets the destination again.
   */
  | { type: 'PayoutDestinationFailed'; data: { merchantId: string; version: number; payoutId: string; failedAt: string } }
  | { type: 'PayoutSent'; data: { merchantId: string; payoutId: string; providerReference: string; sentAt: string } }
  /** `callbackUrl`: where its callback goes, as the settings said when it was paid (absent before the settings had a stream of their own: the account's). */
  | { type: 'PayoutPaid'; data: { merchantId: string; payoutId: string; amount: Santim; externalReferenceId: string; paidAt: string; callbackUrl?: string | null } }
  /**
   * The money is the merchant's again, each part in the account it came from (`fees`: its request's,
   * absent when none), and its movements can be paid out by a later payout.
   */
  | { type: 'PayoutFailed'; data: { merchantId: string; payoutId: string; amount: Santim; fees?: number; reason: string; failedAt: string; callbackUrl?: string | null } }
  /**
   * A payout cancelled before it was sent (its stream said REQUESTED): the money is the merchant's again,
   * each part in the account it came from, as after a failure, and no transfer is ever sent for it.
   */
  | { type: 'PayoutCanceled'; data: { merchantId: string; payoutId: string; amount: Santim; fees?: number; canceledAt: string; callbackUrl: string | null } }
  /**
   * In the payout settings' stream: the merchant's payouts stop (a platform's fraud review, say) until
   * resumed; scheduled periods pay nothing meanwhile, and one asked for is refused (PAYOUTS_PAUSED).
   */
  | { type: 'PayoutsPaused'; data: { merchantId: string; reason: string; pausedAt: string } }
  | { type: 'PayoutsResumed'; data: { merchantId: string; resumedAt: string } }
  /**
   * The carry-over of a merchant's payout account stream (`payouts-{merchantId}`, where releases before
   * each payout, its settings and its destination had streams of their own kept them all): appended
   * there last, with what it carried, so the stream is never carried twice and nothing decides on it
   * again (payout-account-carry-over.ts).
   */
  | { type: 'PayoutAccountCarriedOver'; data: { merchantId: string; payouts: number; carriedAt: string } }
  /**
   * A payout of the payout account stream in a stream of its own (`payout-{payoutId}`), as it stood
   * there: its request, the destination of its version, and its status. Its money moved with its request
   * there (the ledger posts that, never this); its outcomes from now on are recorded here.
   */
  | { type: 'PayoutCarriedOver'; data: CarriedPayout }
  /**
   * The destination in force in the payout account stream, in the destination's own stream: its version
   * and destination (no `setAt`: the stream's read model never told one, and a seller account's hold
   * counts from the epoch for it, as before), and `failed`, a payout that failed to that version (paused).
   */
  | { type: 'PayoutDestinationCarriedOver'; data: { merchantId: string; version: number; destination: PayoutDestination; failed?: { payoutId: string }; carriedAt: string } }
  /** The settings in force in the payout account stream, in the settings' own stream, when the schedule in force was set with them. */
  | { type: 'PayoutSettingsCarriedOver'; data: { merchantId: string; version: number; settings: PayoutSettings; scheduleSetAt: string; carriedAt: string } };

/** A payout of the payout account stream as it is carried to its own stream: its request (with the destination of its version) and its status then. */
export type CarriedPayout = Extract<PayoutEvent, { type: 'PayoutRequested' }>['data'] & { status: PayoutStatus; carriedAt: string };

/** A payout's progress with the provider: requested, sent, then paid or failed once; or canceled while still requested. */
export const PAYOUT_STATUSES = ['REQUESTED', 'SENT', 'PAID', 'FAILED', 'CANCELED'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** The provider's outcomes of a payout, and its cancellation before it is sent (its request is decided across the merchant's books: payout-request.ts). */
export type PayoutCommand =
  | { type: 'RecordPayoutSent'; data: { payoutId: string; providerReference: string; at: string } }
  | { type: 'RecordPayoutPaid'; data: { payoutId: string; externalReferenceId: string; at: string; callbackUrl: string | null } }
  | { type: 'RecordPayoutFailed'; data: { payoutId: string; reason: string; at: string; callbackUrl: string | null } }
  | { type: 'CancelPayout'; data: { payoutId: string; at: string; callbackUrl: string | null } };
