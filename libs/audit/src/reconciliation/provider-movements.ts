import type { Santim } from '@app/domain';
import type { MovementKind, ProviderMovement } from './statement';

/** A posting of a mode's clearing account (`provider:clearing`, `test:provider:clearing`) as the ledger read model holds it: the event that caused it and its side. */
export interface ClearingPosting {
  eventId: string;
  debit: Santim | 0;
  credit: Santim | 0;
}

/** The event behind a posting, as the log holds it. */
export interface PostedEvent {
  id: string;
  streamId: string;
  type: string;
  data: unknown;
  recordedAt: string;
}

interface References {
  kind: MovementKind;
  providerReference: unknown;
  reference?: unknown;
  at: unknown;
}

type Data = Record<string, unknown>;

/**
 * Where each event that moves `provider:clearing` (ledger-rules.ts) keeps what the provider knows it
 * by: a payment's reference as the provider reported it (for the sandbox the push's reference, for
 * Chapa its own `reference`), a refund's as the provider confirmed it beside our refund id, a
 * payout's transfer as the provider confirmed it beside the payout id (the transfer's reference).
 */
const REFERENCES_BY_TYPE: Record<string, (data: Data) => References> = {
  OrderPaid: (data) => ({ kind: 'payment', providerReference: data.externalReferenceId, at: data.paidAt }),
  EscrowFunded: (data) => ({ kind: 'payment', providerReference: data.externalReferenceId, at: data.paidAt }),
  // Only the refund of a payment that could not be taken posts to clearing: the money of that payment came in.
  OrderRefundRequested: (data) => ({ kind: 'payment', providerReference: data.paymentReferenceId, at: data.requestedAt }),
  EscrowRefundRequested: (data) => ({ kind: 'payment', providerReference: data.paymentReferenceId, at: data.requestedAt }),
  OrderRefundCompleted: (data) => ({ kind: 'refund', providerReference: data.externalReferenceId, reference: data.refundId, at: data.completedAt }),
  EscrowRefundCompleted: (data) => ({ kind: 'refund', providerReference: data.externalReferenceId, reference: data.refundId, at: data.completedAt }),
  PayoutPaid: (data) => ({ kind: 'transfer', providerReference: data.externalReferenceId, reference: data.payoutId, at: data.paidAt }),
};

/** A movement the ledger posted to clearing whose event this module cannot read: a ledger rule it does not know yet. */
export class UnknownClearingMovement extends Error {
  constructor(event: PostedEvent) {
    super(`The clearing account moved on ${event.type} (event ${event.id}), which names no provider reference this reconciliation knows`);
    this.name = 'UnknownClearingMovement';
  }
}

/** The day's postings of a mode's clearing account, with the references their events carry, as movements to reconcile. */
export function providerMovementsOf(postings: readonly ClearingPosting[], events: readonly PostedEvent[]): ProviderMovement[] {
  const byId = new Map(events.map((event) => [event.id, event]));
  return postings.map((posting) => {
    const event = byId.get(posting.eventId);
    if (!event) throw new Error(`the event ${posting.eventId} of a clearing account's posting was not read`);
    const refs = Object.hasOwn(REFERENCES_BY_TYPE, event.type) ? REFERENCES_BY_TYPE[event.type]((event.data ?? {}) as Data) : undefined;
    if (!refs || typeof refs.providerReference !== 'string') throw new UnknownClearingMovement(event);
    return {
      eventId: event.id,
      streamId: event.streamId,
      eventType: event.type,
      kind: refs.kind,
      providerReference: refs.providerReference,
      ...(typeof refs.reference === 'string' ? { reference: refs.reference } : {}),
      amount: (posting.debit || posting.credit) as Santim,
      at: typeof refs.at === 'string' ? refs.at : event.recordedAt,
    };
  });
}

/** The event types whose journal entries can touch a clearing account: the only ones a reconciliation reads. */
export const CLEARING_EVENT_TYPES: readonly string[] = Object.keys(REFERENCES_BY_TYPE);
