import { Inject, Injectable } from '@nestjs/common';
import { type BooksEvent, fold, streams, type TransferCommand, transferBooked, transferDecider, type TransferEvent, type TransferState } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { PayoutBooksDeps } from '@app/payments';
import { payableAvailableAt } from '@app/read-models';
import { CLOCK, type Clock } from '@app/infrastructure';
import { LedgerNotCurrent } from './transfers.errors';

/** A transfer as its create left it, and when. */
export interface TransferChange {
  state: TransferState;
  at: Date;
}

/**
 * A transfer out of its source's money, decided at the source's books (`payout-books-{source}`), as a
 * payout is (requestPayout, libs/payments/src/payouts/payout-requests.ts): the books' last event is
 * read, then the ledger is waited for until it has posted everything the log held then, then the
 * source's available balance (its payable and fees, what its payouts take, less the payable's credits the
 * holding period still keeps: payableAvailableAt) is read, and the transfer's stream
 * and the books' TransferBooked are appended together at the books' revision (EventStore.appendMany).
 * A payout or another transfer of the same source decided meanwhile, in any process, moved the books,
 * and this transfer is decided again from fresh reads: no two spend the same money.
 */
@Injectable()
export class TransferAtBooks {
  constructor(
    @Inject(PayoutBooksDeps) private readonly deps: PayoutBooksDeps,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** `create` is given the source's available balance (signed santim) and builds the CreateTransfer the decider decides on it; the same transfer again answers as it stands. */
  async create(source: string, transferId: string, create: (sourceAvailable: number) => Extract<TransferCommand, { type: 'CreateTransfer' }>, metadata: EventMetadata): Promise<TransferChange> {
    const books = streams.payoutBooks(source);
    const stream = streams.transfer(transferId);
    const { runner, store, db, progress, readYourWritesTimeoutMs } = this.deps;
    const { result, recordedAt } = await runner.decideAcross(async () => {
      const [booked, history] = await Promise.all([store.readLastEvent(books), store.readStream(stream)]);
      const state = fold(transferDecider, history as unknown as TransferEvent[]);
      if (state.created) return { appends: [], result: { state, at: history[history.length - 1].recordedAt } };
      if (!(await progress.waitFor(await store.head(), readYourWritesTimeoutMs))) throw new LedgerNotCurrent();
      const command = create((await payableAvailableAt(db, source, this.clock.now())).available);
      const events = transferDecider.decide(command, state);
      return {
        appends: [
          { streamId: stream, events, expected: 'no_stream' as const },
          { streamId: books, events: [transferBooked(source, transferId, booked as unknown as BooksEvent | undefined)], expected: booked ? booked.revision : ('no_stream' as const) },
        ],
        result: { state: events.reduce(transferDecider.evolve, state), at: new Date(command.data.at) },
      };
    }, metadata);
    // The view keeps the time the transfer was recorded, which the answer shows too (not the command's own clock).
    return recordedAt ? { ...result, at: recordedAt } : result;
  }
}
