import type { Santim } from '../shared/money';
import type { TransferReversal, TransferState } from './transfer.decider';
import type { TransferTerms } from './transfer.events';

/**
 * A transfer as read models, callbacks and command answers read it (libs/read-models' transfers view,
 * libs/callbacks' payloads): a shape published on purpose, so the decider's state may change without them.
 */
export interface TransferOutline {
  /** What its creation said. */
  terms: TransferTerms & { createdAt: string };
  /** Its reversals, oldest first, and their sum (never above the amount). */
  reversals: TransferReversal[];
  reversed: Santim;
}

/** Nothing before the transfer is made. */
export function transferOutline(state: TransferState): TransferOutline | undefined {
  return state.created && { terms: state.created, reversals: state.reversals, reversed: state.reversed };
}
