import { type BooksEvent, type DomainError, type DomainEvent, streams } from '@app/domain';
import type { EventMetadata, LogPosition, RecordedEvent } from '@app/event-store';
import type { PayoutBooksDeps } from './payout-books-deps';

/** What a decision at a merchant's books is given: the books as they stand and the ledger's catching up. */
export interface AtBooks {
  /** The books' last event, which the next one follows; none before the merchant's first payout or transfer. */
  booked?: BooksEvent;
  /** The log's head when this decision began: the balance is only current once the ledger has posted it. */
  head: LogPosition;
  /**
   * Settles once the ledger has posted everything up to `head`, or rejects with the ask's `ledgerBehind`.
   * The decision awaits it alongside its own reads, so the wait and the reads overlap.
   */
  ledgerPosted: Promise<void>;
}

/** What the decision makes: the events of its own stream and the books' next event, or nothing to do. */
export type BooksDecision<Result> = { result: Result } | { result: Result; events: DomainEvent[]; booked: BooksEvent };

export interface BooksAsk<Result> {
  /** Whose books: the merchant or account whose money leaves. */
  merchantId: string;
  /** The stream of what is decided (`payout-{id}`, `transfer-{id}`), new until it is. */
  streamId: string;
  /** What was decided under this stream already answers a retry as it stands, and nothing is decided again. */
  decided: (history: readonly RecordedEvent[]) => Result;
  /** How long the ledger may take to post what the log holds, and the refusal when it does not. */
  ledgerWaitMs: number;
  ledgerBehind: () => DomainError;
  decide: (books: AtBooks) => Promise<BooksDecision<Result>>;
}

export interface AtBooksOutcome<Result> {
  result: Result;
  /** When the decision's events were recorded; none when it had nothing to append. */
  recordedAt?: Date;
}

/**
 * The one protocol for money leaving a merchant's balance (a payout, a transfer out of it): the books'
 * last event (`payout-books-{merchantId}`) is read, the ledger is awaited until it has posted
 * everything the log held then, the decision reads the balance and decides, and its own stream and the
 * books' next event are appended together at the books' revision (EventStore.appendMany). Anything
 * else decided on the same books meanwhile, in any process, moved them, and this decision is made
 * again from fresh reads: no two spend the same money. Within a process the books are one lane
 * (CommandRunner.decideAcross), so decisions on them take turns instead of refusing each other, and
 * only a decision that no longer fits is refused, with its own code.
 */
export async function decideAtBooks<Result>(deps: PayoutBooksDeps, ask: BooksAsk<Result>, metadata: EventMetadata): Promise<AtBooksOutcome<Result>> {
  const { runner, store, progress } = deps;
  const books = streams.payoutBooks(ask.merchantId);
  const { result, recordedAt } = await runner.decideAcross(
    async () => {
      const [booked, history] = await Promise.all([store.readLastEvent(books), store.readStream(ask.streamId)]);
      if (history.length > 0) return { appends: [], result: ask.decided(history) };
      const head = await store.head();
      const ledgerPosted = progress.waitFor(head, ask.ledgerWaitMs).then((posted) => {
        if (!posted) throw ask.ledgerBehind();
      });
      // A decision refused by its own reads first never awaits the wait: its refusal is not unhandled.
      ledgerPosted.catch(() => undefined);
      const decision = await ask.decide({ booked: booked as unknown as BooksEvent | undefined, head, ledgerPosted });
      if (!('events' in decision)) return { appends: [], result: decision.result };
      return {
        appends: [
          { streamId: ask.streamId, events: decision.events, expected: 'no_stream' as const },
          { streamId: books, events: [decision.booked], expected: booked ? booked.revision : ('no_stream' as const) },
        ],
        result: decision.result,
      };
    },
    metadata,
    books,
  );
  return { result, recordedAt };
}
