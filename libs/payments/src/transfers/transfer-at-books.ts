import {
  accountDecider,
  type BooksEvent,
  fold,
  LedgerNotCurrent,
  streams,
  type TransferCommand,
  transferBooked,
  transferCounterparty,
  transferDecider,
  type TransferEvent,
  type TransferState,
  type TransferTerms,
} from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { payableAvailableAt } from '@app/read-models';
import { decideAtBooks } from '../payouts/decide-at-books';
import type { PayoutBooksDeps } from '../payouts/payout-books-deps';

/** A transfer as its create left it, and when it was recorded (what its view keeps and its answer shows). */
export interface TransferChange {
  state: TransferState;
  at: Date;
}

/**
 * A transfer out of its source's money, decided at the source's books as a payout is (decideAtBooks),
 * on the source's available balance (its payable and fees, what its payouts take, less the payable's
 * credits the holding period still keeps: payableAvailableAt) at the instant `at` the transfer is
 * made (its clock's). `create` is given that balance (signed santim) and builds the CreateTransfer the
 * decider decides on it, reading at the books what the books order (whether the other party's account
 * was closed: closeAtBooks); the same transfer again answers as it stands.
 */
export async function transferAtBooks(
  deps: PayoutBooksDeps,
  source: string,
  transferId: string,
  at: Date,
  create: (sourceAvailable: number) => Promise<Extract<TransferCommand, { type: 'CreateTransfer' }>>,
  metadata: EventMetadata,
): Promise<TransferChange> {
  const { result, recordedAt } = await decideAtBooks<TransferChange>(
    deps,
    {
      merchantId: source,
      streamId: streams.transfer(transferId),
      decided: (history) => ({ state: fold(transferDecider, history as unknown as TransferEvent[]), at: history[history.length - 1].recordedAt }),
      ledgerWaitMs: deps.readYourWritesTimeoutMs,
      ledgerBehind: () => new LedgerNotCurrent(),
      decide: async ({ booked, ledgerPosted }) => {
        await ledgerPosted;
        const command = await create((await payableAvailableAt(deps.db, source, at)).available);
        const initial = transferDecider.initialState();
        const events = transferDecider.decide(command, initial);
        const state = events.reduce(transferDecider.evolve, initial);
        return { result: { state, at: new Date(command.data.at) }, events, booked: transferBooked(source, transferId, booked) };
      },
    },
    metadata,
  );
  // The view keeps the time the transfer was recorded, which the answer shows too (not the command's own clock).
  return recordedAt ? { ...result, at: recordedAt } : result;
}

/**
 * A reversal of a transfer, decided at the books of the party it takes the money back from (the
 * transfer's destination), as a transfer out of that party's money is: its
 * transfer stream and that books' TransferBooked are appended together at the revisions read. An
 * account's closing takes a turn at its own books and at its platform's (closeAtBooks), so a reversal
 * that takes money from a closed account, or gives money back to one, is decided on the account as
 * closed: the decider refuses it unless the account still holds what it gives back.
 */
export async function reverseAtBooks(
  deps: PayoutBooksDeps,
  terms: Pick<TransferTerms, 'transferId' | 'platformId' | 'source' | 'destination'>,
  reverse: Extract<TransferCommand, { type: 'ReverseTransfer' }>,
  metadata: EventMetadata,
): Promise<TransferState> {
  const { runner, store, progress, db } = deps;
  const { transferId, destination } = terms;
  const transfer = streams.transfer(transferId);
  const books = streams.payoutBooks(destination);
  const counterparty = transferCounterparty(terms);
  const { result } = await runner.decideAcross(
    async () => {
      const [booked, history, account] = await Promise.all([store.readLastEvent(books), store.readStream(transfer), runner.read(streams.account(counterparty), accountDecider)]);
      const closed = account.state.account?.status === 'CLOSED';
      // What a closed account gives back is at most what it holds: read, with the ledger caught up, only for one that gives.
      const gives = closed && counterparty === destination;
      if (gives && !(await progress.waitFor(await store.head(), deps.readYourWritesTimeoutMs))) throw new LedgerNotCurrent();
      const available = gives ? (await payableAvailableAt(db, counterparty, new Date(reverse.data.at))).available : 0;
      const command = closed ? { ...reverse, data: { ...reverse.data, closedCounterparty: { available } } } : reverse;
      const state = fold(transferDecider, history as unknown as TransferEvent[]);
      const events = transferDecider.decide(command, state);
      return {
        appends: [
          { streamId: transfer, events, expected: history[history.length - 1].revision },
          { streamId: books, events: [transferBooked(destination, transferId, booked as unknown as BooksEvent | undefined)], expected: booked ? booked.revision : ('no_stream' as const) },
        ],
        result: events.reduce(transferDecider.evolve, state),
      };
    },
    metadata,
    books,
  );
  return result;
}
