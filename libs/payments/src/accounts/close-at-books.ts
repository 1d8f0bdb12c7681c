import { accountDecider, type AccountCommand, type AccountEvent, type AccountHoldings, type AccountState, type BooksEvent, closureBooked, fold, LedgerNotCurrent, streams } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { PayoutBooksDeps } from '../payouts/payout-books-deps';

export interface ClosingAsk {
  accountId: string;
  /** The account's platform: transfers to the account are decided at its books. */
  platformId: string;
  /** What the account holds, read once the ledger and the views have caught up with the log. */
  holdings: () => Promise<AccountHoldings>;
  /** The closing command, decided on those holdings. */
  close: (holdings: AccountHoldings) => Extract<AccountCommand, { type: 'CloseAccount' }>;
}

/**
 * An account's closing, decided at the books where its money moves (decide-at-books.ts): a transfer
 * out of it and its payouts are decided at its own books (`payout-books-{accountId}`), a transfer to it
 * at its platform's (`payout-books-{platformId}`), so the closing reads both books' last events and the
 * account's stream, waits until the ledger and the views include everything the log held then, reads
 * what the account holds and decides, and appends AccountClosed with an AccountClosureBooked in each
 * books, at the revisions it read (EventStore.appendMany). A movement decided meanwhile moved a books,
 * and the closing is decided again on what it left (ACCOUNT_NOT_SETTLED when that is money); one decided
 * after it reads the account closed at its books (transfer.handlers.ts, payout-requests.ts). The lane
 * is the account's books, where its own payouts and transfers out take turns.
 */
export async function closeAtBooks(deps: PayoutBooksDeps, ask: ClosingAsk, metadata: EventMetadata): Promise<AccountState> {
  const { runner, store, progress } = deps;
  const account = streams.account(ask.accountId);
  const owners = [ask.accountId, ask.platformId];
  const books = owners.map((owner) => streams.payoutBooks(owner));
  const { result } = await runner.decideAcross(
    async () => {
      const [history, ...booked] = await Promise.all([store.readStream(account), ...books.map((id) => store.readLastEvent(id))]);
      const state = fold(accountDecider, history as unknown as AccountEvent[]);
      if (!(await progress.waitFor(await store.head(), deps.readYourWritesTimeoutMs))) throw new LedgerNotCurrent();
      const events = accountDecider.decide(ask.close(await ask.holdings()), state);
      const after = events.reduce(accountDecider.evolve, state);
      if (events.length === 0) return { appends: [], result: after };
      return {
        appends: [
          { streamId: account, events, expected: history[history.length - 1].revision },
          ...books.map((streamId, i) => ({
            streamId,
            events: [closureBooked(owners[i], ask.accountId, booked[i] as unknown as BooksEvent | undefined)],
            expected: booked[i] ? booked[i]!.revision : ('no_stream' as const),
          })),
        ],
        result: after,
      };
    },
    metadata,
    books[0],
  );
  return result;
}
