import { decidePayment } from '../payment/payment.decider';
import type { Decider } from '../shared/decider';
import { decideReleaseDue, decideReschedule } from './escrow.auto-release';
import type { EscrowCommand } from './escrow.commands';
import { decideCreate } from './escrow.create';
import { decideDispute, decideResolve } from './escrow.disputes';
import type { EscrowEvent } from './escrow.events';
import { EscrowNotFound } from './escrow.errors';
import { evolveEscrow } from './escrow.evolve';
import { decideCancel, decideRefund } from './escrow.refund';
import { decideRelease } from './escrow.release';
import { decideReversal } from './escrow.reversal';
import { ESCROW_PAYMENT, type EscrowState, initialEscrowState } from './escrow.state';

/**
 * An escrow: a payment (the shared payment sub-decider) plus allocations. Its state and what is
 * derived from it live in escrow.state.ts, its fold in escrow.evolve.ts, each group of commands'
 * rules in a file of its own.
 */
function decide(command: EscrowCommand, state: EscrowState): EscrowEvent[] {
  switch (command.type) {
    case 'CreateEscrow':
      return decideCreate(command.data, state);
    case 'ReleaseFunds':
      return decideRelease(command.data, state);
    case 'RefundFunds':
      return decideRefund(command.data, state);
    case 'CancelEscrow':
      return decideCancel(command.data, state);
    case 'RescheduleAutoRelease':
      return decideReschedule(command.data, state);
    case 'ReleaseDue':
      return decideReleaseDue(command.data, state);
    case 'OpenDispute':
      return decideDispute(command.data, state);
    case 'ResolveDispute':
      return decideResolve(command.data, state);
    case 'ReverseAllocation':
      return decideReversal(command.data, state);
    default:
      if (!state.payment) throw new EscrowNotFound('unknown');
      return decidePayment(command, state.payment, state.status).map((fact) => ESCROW_PAYMENT.event(fact));
  }
}

export const escrowDecider: Decider<EscrowCommand, EscrowEvent, EscrowState> = {
  initialState: initialEscrowState,
  evolve: evolveEscrow,
  decide,
};
