import { AccountIsClosed } from '../account/account-closing';
import type { Decider } from '../shared/decider';
import { type Santim, santim, subtractSantim, ZERO } from '../shared/money';
import {
  InsufficientAvailableBalance,
  NegativeOnlyForPenalty,
  TransferAmountExceedsReversible,
  TransferFullyReversed,
  TransferNotFound,
  TransferToItself,
} from './transfer.errors';
import type { TransferCommand, TransferEvent, TransferTerms } from './transfer.events';

export interface TransferReversal {
  reversalId: string;
  amount: Santim;
  reversedAt: string;
}

export interface TransferState {
  created?: TransferTerms & { createdAt: string };
  reversals: TransferReversal[];
  /** The sum of the reversals: never above the amount. */
  reversed: Santim;
}

/** What is left to reverse: what the transfer moved less what went back. */
export const reversibleOf = (state: TransferState): Santim => (state.created ? subtractSantim(state.created.amount, state.reversed) : ZERO);

/** `to`: the platform pays the other party; `from`: the other party pays the platform. */
export const transferDirection = (terms: Pick<TransferTerms, 'platformId' | 'source'>): 'to' | 'from' => (terms.source === terms.platformId ? 'to' : 'from');

/** The side that is not the platform. */
export const transferCounterparty = (terms: Pick<TransferTerms, 'platformId' | 'source' | 'destination'>): string =>
  terms.source === terms.platformId ? terms.destination : terms.source;

function decide(command: TransferCommand, state: TransferState): TransferEvent[] {
  switch (command.type) {
    case 'CreateTransfer': {
      const { sourceAvailable, sourceClosed, at, ...terms } = command.data;
      // The transfer's id derives from the request's Idempotency-Key and body: the same request again finds it made.
      if (state.created) return [];
      if (terms.source === terms.destination || (terms.source !== terms.platformId && terms.destination !== terms.platformId)) throw new TransferToItself();
      if (terms.allowNegative && transferDirection(terms) === 'to') throw new NegativeOnlyForPenalty();
      // A closed account gives what it still holds and no more: a debt it took on could never be repaid, as nothing is paid to it any more.
      if (sourceClosed && sourceAvailable - terms.amount < 0 && terms.allowNegative) throw new AccountIsClosed(terms.source);
      // Available money only: a source may not go below zero, unless the platform takes a penalty from the other party and says it may.
      if (sourceAvailable - terms.amount < 0 && !terms.allowNegative) throw new InsufficientAvailableBalance(terms.source, sourceAvailable, terms.amount);
      return [{ type: 'TransferCreated', data: { ...terms, createdAt: at } }];
    }
    case 'ReverseTransfer': {
      const { transferId, platformId, at, callbackUrl } = command.data;
      if (!state.created || state.created.platformId !== platformId) throw new TransferNotFound(transferId);
      const reversible = reversibleOf(state);
      if (reversible === 0) throw new TransferFullyReversed(transferId);
      const amount = command.data.amount ?? reversible;
      if (amount > reversible) throw new TransferAmountExceedsReversible(transferId, reversible, amount);
      const { source, destination } = state.created;
      // A closed account is credited nothing, and gives back what it still holds and no more: a debt it took on could never be repaid.
      const closed = command.data.closedCounterparty;
      if (closed && (destination === platformId || closed.available - amount < 0)) throw new AccountIsClosed(transferCounterparty(state.created));
      // The destination gives it back whatever its balance: it may go below zero (a reversal is the platform's decision, as a penalty is).
      return [
        {
          type: 'TransferReversed',
          data: { transferId, reversalId: `${transferId}-reversal-${state.reversals.length + 1}`, platformId, source, destination, amount, reversedAt: at, callbackUrl },
        },
      ];
    }
  }
}

function evolve(state: TransferState, event: TransferEvent): TransferState {
  switch (event.type) {
    case 'TransferCreated':
      return { ...state, created: event.data };
    case 'TransferReversed': {
      const { reversalId, amount, reversedAt } = event.data;
      return { ...state, reversals: [...state.reversals, { reversalId, amount, reversedAt }], reversed: santim(state.reversed + amount) };
    }
  }
}

export const transferDecider: Decider<TransferCommand, TransferEvent, TransferState> = {
  initialState: () => ({ reversals: [], reversed: ZERO }),
  evolve,
  decide,
};
