import type { DomainEvent } from '../shared/decider';
import type { PaymentFact, PaymentFactKind, RefundRequest } from './payment.events';

/**
 * How a payable names the payment lifecycle's facts in its own stream. The names are history (an
 * order's `OrderPaid`, an escrow's `EscrowFunded`), so they are kept, and this one table per payable
 * is all that differs between their payment lifecycles.
 */
export class PaymentNaming<Event extends DomainEvent, PaymentEvent extends Event> {
  private readonly kinds: ReadonlyMap<string, PaymentFactKind>;

  constructor(
    private readonly names: Readonly<Record<PaymentFactKind, PaymentEvent['type']>>,
    /** What this payable adds to the refund of a payment it refused (an escrow names the allocations refunded: none). */
    private readonly refusedPaymentRefund: (request: RefundRequest) => RefundRequest = (request) => request,
  ) {
    this.kinds = new Map(Object.entries(names).map(([kind, type]) => [type, kind as PaymentFactKind]));
  }

  is(event: Event): event is PaymentEvent {
    return this.kinds.has(event.type);
  }

  fact(event: PaymentEvent): PaymentFact {
    // The table pairs each name with its kind; TypeScript cannot follow a pairing made at run time.
    return { kind: this.kinds.get(event.type)!, data: event.data } as PaymentFact;
  }

  event(fact: PaymentFact): PaymentEvent {
    const data = fact.kind === 'refundRequested' ? this.refusedPaymentRefund(fact.data) : fact.data;
    return { type: this.names[fact.kind], data } as PaymentEvent;
  }
}
