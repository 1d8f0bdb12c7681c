import { fold, LedgerNotCurrent, streams, type TransferCommand, transferBooked, transferDecider, type TransferEvent, type TransferState } from '@app/domain';
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
 * decider decides on it; the same transfer again answers as it stands.
 */
export async function transferAtBooks(
  deps: PayoutBooksDeps,
  source: string,
  transferId: string,
  at: Date,
  create: (sourceAvailable: number) => Extract<TransferCommand, { type: 'CreateTransfer' }>,
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
        const command = create((await payableAvailableAt(deps.db, source, at)).available);
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
