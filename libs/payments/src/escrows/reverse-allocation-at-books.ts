import { accountDecider, allocationReversalBooked, type BooksEvent, type Decider, type EscrowCommand, type EscrowEvent, type EscrowState, fold, LedgerNotCurrent, streams } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { alreadyApplied } from '@app/infrastructure';
import { payableAvailableAt } from '@app/read-models';
import type { PayoutBooksDeps } from '../payouts/payout-books-deps';

export interface AllocationReversalAsk {
  escrowId: string;
  /** The allocation's payee as the escrow stores it: whose money the reversal takes back, and so whose books it is decided at. */
  payee: string;
  /** The escrow's decider as the caller may use it (escrowDeciderFor). */
  decider: Decider<EscrowCommand, EscrowEvent, EscrowState>;
  reverse: Extract<EscrowCommand, { type: 'ReverseAllocation' }>;
}

export interface AllocationReversalOutcome {
  state: EscrowState;
  /** When the reversal was recorded (now, when nothing was). */
  at: Date;
}

/**
 * The reversal of an allocation released to its payee (a return after the seller was paid), decided
 * at the payee's books as the reversal of a transfer is at its destination's (reverseAtBooks): the
 * escrow's EscrowRefundRequested and the books' AllocationReversalBooked are appended together at the
 * revisions read (EventStore.appendMany), the escrow's view written with them (its `folded` state) so
 * that the escrow read right after shows the reversal, as after any other escrow command. An account's
 * closing takes a turn at its own books (closeAtBooks), so either the closing comes after the reversal and sees its debit (ACCOUNT_NOT_SETTLED
 * if the account then owes), or the reversal comes after the closing and is decided on the account as
 * closed: the decider refuses it (ACCOUNT_CLOSED) unless the account still has available what it gives
 * back. Only then is the ledger awaited and the balance read; an open payee's reversal reads neither,
 * as before (its balance may go below zero).
 */
export async function reverseAllocationAtBooks(deps: PayoutBooksDeps, ask: AllocationReversalAsk, metadata: EventMetadata): Promise<AllocationReversalOutcome> {
  const { runner, store, progress, db } = deps;
  const { decider, reverse, payee } = ask;
  const escrow = streams.escrow(ask.escrowId);
  const books = streams.payoutBooks(payee);
  const { result, recordedAt } = await runner.decideAcross(
    async () => {
      const [booked, history, account] = await Promise.all([store.readLastEvent(books), store.readStream(escrow), runner.read(streams.account(payee), accountDecider)]);
      // A keyed request an earlier attempt applied (its answer lost) is answered from its events, as the runner does.
      const applied = typeof metadata.idempotency === 'string' ? alreadyApplied(decider, history, metadata.idempotency) : undefined;
      if (applied) return { appends: [], result: { state: applied.state, at: applied.at } };
      const state = fold(decider, history as unknown as EscrowEvent[]);
      // Decided as for an open payee first: a reversal refused for its own reasons waits for nothing.
      let events = decider.decide(reverse, state);
      if (events.length > 0 && account.state.account?.status === 'CLOSED') {
        if (!(await progress.waitFor(await store.head(), deps.readYourWritesTimeoutMs))) throw new LedgerNotCurrent();
        const { available } = await payableAvailableAt(db, payee, new Date(reverse.data.at));
        events = decider.decide({ ...reverse, data: { ...reverse.data, payeeClosed: { available } } }, state);
      }
      const after = events.reduce(decider.evolve, state);
      if (events.length === 0) return { appends: [], result: { state: after, at: new Date() } };
      const refundId = after.payment!.refunds[after.payment!.refunds.length - 1].refundId;
      return {
        appends: [
          { streamId: escrow, events, expected: history[history.length - 1].revision, folded: { state: after, startedAt: history[0].recordedAt } },
          {
            streamId: books,
            events: [allocationReversalBooked(payee, ask.escrowId, refundId, booked as unknown as BooksEvent | undefined)],
            expected: booked ? booked.revision : ('no_stream' as const),
          },
        ],
        result: { state: after, at: new Date() },
      };
    },
    metadata,
    books,
  );
  return recordedAt ? { ...result, at: recordedAt } : result;
}
