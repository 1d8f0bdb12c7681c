import type { Santim } from '../shared/money';

/**
 * A transfer moves available money between a platform and one other party (docs/guides/returns-transfers-and-balances.md):
 * `source`'s payable gives it to `destination`'s. The platform is one of the two: a transfer `to` the other
 * party has the platform as its source, one `from` it (a penalty) as its destination.
 */
export interface TransferTerms {
  transferId: string;
  /** The merchant that asked for it, one of the two sides. */
  platformId: string;
  source: string;
  destination: string;
  amount: Santim;
  description: string;
  metadata?: Record<string, unknown>;
  /**
   * What it belongs to, as the platform said (Stripe's `source_transaction`/`transfer_group`): one of its
   * escrows or one of its payment orders, by id. Absent: none named, as on every transfer made before.
   */
  escrowId?: string;
  orderId?: string;
  /** The platform let it take the source below zero (a penalty `from` the other party only). */
  allowNegative: boolean;
  /** Where its TRANSFER_CREATED callback goes: the platform's payout callback URL in force when it was made (null: none). */
  callbackUrl: string | null;
}

export type TransferEvent =
  | { type: 'TransferCreated'; data: TransferTerms & { createdAt: string } }
  /** Money back the other way, from `destination` to `source`: all or part of what the transfer moved and no reversal took back yet. */
  | { type: 'TransferReversed'; data: { transferId: string; reversalId: string; platformId: string; source: string; destination: string; amount: Santim; reversedAt: string; callbackUrl: string | null } };

export type TransferCommand =
  /**
   * `sourceAvailable`: the source's available balance (its payable and fees, signed santim, less the payable's
   * credits the holding period keeps) as the ledger stood, caught up with the log, when the command was built
   * (payableAvailableAt, libs/read-models/src/ledger/payable-availability.reader.ts). `sourceClosed`: the source is
   * an account its stream, read at the source's books, says is closed (absent: it is not).
   */
  | { type: 'CreateTransfer'; data: TransferTerms & { sourceAvailable: number; sourceClosed?: boolean; at: string } }
  /**
   * `closedCounterparty`: the party that is not the platform is an account its stream, read at the books of
   * the reversal's destination, says is closed, with its available balance then (signed santim); absent: it is not.
   */
  | { type: 'ReverseTransfer'; data: { transferId: string; platformId: string; amount?: Santim; at: string; callbackUrl: string | null; closedCounterparty?: { available: number } } };
