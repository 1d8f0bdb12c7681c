import { may } from '../authority/authority';
import { holderOf, type Principal } from '../authority/principal';
import { accountIdFor } from '../ids';
import type { Decider } from '../shared/decider';
import type { EscrowCommand } from './escrow.commands';
import { escrowDecider } from './escrow.decider';
import { EscrowNotFound } from './escrow.errors';
import type { EscrowEvent } from './escrow.events';
import type { EscrowState } from './escrow.state';

/**
 * The id an allocation is stored under, as its escrow's creator may name it: the stored id, or the
 * creator's own reference for one of its accounts, which the create stored as that account's accountId
 * (libs/onboarding/src/accounts/allocation-payees.ts). An id that names an allocation as stored keeps
 * it, as does one that names neither (the decider refuses it by the id given).
 */
export function storedId(state: EscrowState, id: string, idSalt: string): string {
  if (state.allocations.some((a) => a.merchantId === id)) return id;
  const accountId = accountIdFor(idSalt, { reference: id });
  return state.allocations.some((a) => a.merchantId === accountId) ? accountId : id;
}

function withStoredIds(command: EscrowCommand, state: EscrowState, idSalt: string): EscrowCommand {
  const stored = (id: string) => storedId(state, id, idSalt);
  switch (command.type) {
    case 'ReleaseFunds':
      return { ...command, data: { ...command.data, releases: command.data.releases.map((r) => ({ ...r, merchantId: stored(r.merchantId) })) } };
    case 'RefundFunds':
      return { ...command, data: { ...command.data, refunds: command.data.refunds.map((r) => ({ ...r, merchantId: stored(r.merchantId) })) } };
    case 'OpenDispute':
      return command.data.allocation === undefined ? command : { ...command, data: { ...command.data, allocation: stored(command.data.allocation) } };
    case 'ResolveDispute':
      return {
        ...command,
        data: { ...command.data, resolutions: command.data.resolutions.map((r) => (r.merchantId === undefined ? r : { ...r, merchantId: stored(r.merchantId) })) },
      };
    case 'ReverseAllocation':
      return { ...command, data: { ...command.data, allocation: stored(command.data.allocation) } };
    default:
      return command;
  }
}

/**
 * The escrow decider for a principal's command on an escrow it created (whose `idSalt` derives its
 * accounts' ids from their references): the authority rule is asked first (an escrow is its creator's
 * to release, refund, cancel, dispute or reschedule: authority/authority.ts), and another's escrow is
 * not found. A release, refund, dispute or reversal may name a seller's allocation by the reference the
 * escrow was created with. Its events, and so its answer and callbacks, name the allocation as stored.
 * The state and fold are the escrow decider's own.
 */
export function escrowDeciderFor(principal: Principal, idSalt: string): Decider<EscrowCommand, EscrowEvent, EscrowState> {
  return {
    ...escrowDecider,
    decide: (command, state) => {
      if (state.created && !may(principal, 'escrow', { kind: state.created.merchantId === holderOf(principal) ? 'self' : 'unknown' })) throw new EscrowNotFound(state.created.escrowId);
      return escrowDecider.decide(withStoredIds(command, state, idSalt), state);
    },
  };
}
