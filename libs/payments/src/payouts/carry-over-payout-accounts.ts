import { type BooksEvent, carryOverPayoutAccount, type CarryOver, type PayoutAccountRecord, payoutDestinationDecider, payoutSettingsDecider, streamKind, streamKey, streams } from '@app/domain';
import { type EventMetadata, type EventStore, formatPosition } from '@app/event-store';
import type { CommandRunner, KnownStream } from '@app/infrastructure';

const SYSTEM: EventMetadata = { actor: { type: 'system', id: 'payout-account-carry-over' } };

const expected = (known: KnownStream<unknown>) => (known.head ? known.head.revision : ('no_stream' as const));

/**
 * Carries one merchant's payout account stream over (carryOverPayoutAccount), in one append across
 * every stream it writes, at the revisions it read them at: a payout's outcome recorded in the account
 * stream meanwhile, or a destination or settings set in their own streams, makes it decide again from
 * fresh reads, so nothing is carried from a stale read and nothing twice. Undefined when there was
 * nothing to carry (no such stream, or carried over already).
 */
export async function carryOverMerchantPayouts(runner: CommandRunner, store: EventStore, merchantId: string, at: string): Promise<CarryOver | undefined> {
  const { result } = await runner.decideAcross(async () => {
    const account = streams.payouts(merchantId);
    const history = await store.readStream(account);
    const records = history.map((e): PayoutAccountRecord => ({ event: { type: e.type, data: e.data } as PayoutAccountRecord['event'], position: formatPosition(e.position) }));
    const payoutIds = records.flatMap(({ event }) => (event.type === 'PayoutRequested' ? [event.data.payoutId] : []));
    const [destination, settings, booked, own] = await Promise.all([
      runner.read(streams.payoutDestination(merchantId), payoutDestinationDecider),
      runner.read(streams.payoutSettings(merchantId), payoutSettingsDecider),
      store.readLastEvent(streams.payoutBooks(merchantId)),
      store.readStreams(payoutIds.map((id) => streams.payout(id))),
    ]);
    const ownStreams = new Set(payoutIds.filter((id) => (own.get(streams.payout(id))?.length ?? 0) > 0));
    const carry = carryOverPayoutAccount(merchantId, records, { destination: destination.state, settings: settings.state, booked: booked as unknown as BooksEvent | undefined, ownStreams }, at);
    if (!carry) return { appends: [], result: undefined };
    return {
      appends: [
        ...(carry.destination ? [{ streamId: streams.payoutDestination(merchantId), events: [carry.destination], expected: expected(destination) }] : []),
        ...(carry.settings ? [{ streamId: streams.payoutSettings(merchantId), events: [carry.settings], expected: expected(settings) }] : []),
        ...carry.payouts.map((payout) => ({ streamId: streams.payout(payout.data.payoutId), events: [payout], expected: 'no_stream' as const })),
        ...(carry.booked ? [{ streamId: streams.payoutBooks(merchantId), events: [carry.booked], expected: booked ? booked.revision : ('no_stream' as const) }] : []),
        { streamId: account, events: [carry.carried], expected: history[history.length - 1].revision },
      ],
      result: carry,
    };
  }, SYSTEM);
  return result;
}

/**
 * The one migration from the older generation of payout streams: every merchant's payout account
 * stream (`payouts-{merchantId}`) is carried over (carryOverMerchantPayouts). Run again, it finds each
 * carried over already and appends nothing; with none left, listing them is all it costs. The
 * merchants it carried over.
 */
export async function carryOverPayoutAccounts(runner: CommandRunner, store: EventStore, at: string): Promise<string[]> {
  const accounts = (await store.streamIdsStartingWith(streams.payouts(''))).filter((id) => streamKind(id) === 'payouts');
  const carried: string[] = [];
  for (const merchantId of accounts.map(streamKey)) if (await carryOverMerchantPayouts(runner, store, merchantId, at)) carried.push(merchantId);
  return carried;
}
