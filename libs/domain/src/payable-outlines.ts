import { escrowDecider } from './escrow/escrow.decider';
import type { EscrowEvent } from './escrow/escrow.events';
import { type EscrowOutline, escrowOutline } from './escrow/escrow.outline';
import type { EscrowState } from './escrow/escrow.state';
import { orderDecider, type OrderState } from './order/order.decider';
import type { OrderEvent } from './order/order.events';
import { type OrderOutline, orderOutline } from './order/order.outline';
import { type DomainEvent, fold } from './shared/decider';

/**
 * How a reader folds a payable's stream and reads the result through the outline the domain
 * publishes: what the decider folds stays the domain's own shape, so it may change without readers.
 * `outline` reads a writer's state too (an inline view gets the state the writer decided on).
 */
export interface OutlineFold<Outline> {
  /** The payable's decider, for a reader that folds once what several read (libs/read-models' BatchHistories.statesAlong). */
  decider: { initialState: () => unknown; evolve: (state: never, event: never) => unknown };
  /** The history (stored events: their type and data) folded by the payable's decider. */
  fold(history: readonly DomainEvent[]): unknown;
  /** What a folded state publishes; undefined before the payable's creation. */
  outline(state: unknown): Outline | undefined;
}

export const orderOutlineFold: OutlineFold<OrderOutline> = {
  decider: orderDecider,
  fold: (history) => fold(orderDecider, history as OrderEvent[]),
  outline: (state) => orderOutline(state as OrderState),
};

export const escrowOutlineFold: OutlineFold<EscrowOutline> = {
  decider: escrowDecider,
  fold: (history) => fold(escrowDecider, history as EscrowEvent[]),
  outline: (state) => escrowOutline(state as EscrowState),
};
