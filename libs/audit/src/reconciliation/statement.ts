import type { Santim } from '@app/domain';

/** What moved money through the provider: a customer's payment, a refund to one, a transfer (payout) out. */
export type MovementKind = 'payment' | 'refund' | 'transfer';

/**
 * A line's outcome at the provider, whatever its own words: `settled` moved the money, `failed`
 * (declined, cancelled, reversed, reverted) did not or took it back, `pending` has not yet.
 */
export type LineStatus = 'settled' | 'failed' | 'pending';

/** One line of a provider's statement, read into our terms. */
export interface StatementLine {
  /** The line of the file it is on (the header is line 1; a quoted field over several lines: its last), so a report names it. */
  line: number;
  kind: MovementKind;
  /** The provider's own reference for it: what it reported to us when it confirmed the movement. */
  providerReference: string;
  /** Ours, as we gave it to the provider (tx_ref, refund reference, payout id), when the statement shows it. */
  reference?: string;
  /** Gross: what the customer paid, what was refunded, what was transferred. */
  amount: Santim;
  /** What the provider charged for it, reported beside the gross amount (never netted from it). */
  fee: Santim;
  status: LineStatus;
  /** The provider's word for the status, as written. */
  providerStatus: string;
  /** When it moved (or, still pending, when it was made), ISO 8601. */
  at: string;
}

/** A posting of a mode's clearing account and the provider references its event carries. */
export interface ProviderMovement {
  eventId: string;
  streamId: string;
  eventType: string;
  kind: MovementKind;
  providerReference: string;
  reference?: string;
  amount: Santim;
  /** The provider's time of the movement as we recorded it (the notification's or the status answer's). */
  at: string;
}
