import type { SqlExecutor } from '@app/database';
import {
  accountDecider,
  type BooksEvent,
  decidePayoutRequest,
  type DestinationInForce,
  destinationInForce,
  type PayoutAsk,
  PayoutLedgerBehind,
  payoutDestinationDecider,
  type PayoutDestinationState,
  type PayoutRequested,
  type PayoutStanding,
  isAccountId,
  payoutStanding,
  payoutsThroughOf,
  streams,
} from '@app/domain';
import { comparePositions, type EventMetadata, formatPosition } from '@app/event-store';
import type { CommandRunner, KnownStream } from '@app/infrastructure';
import { lastAccountPayoutPosition, latestDestinationVersion, merchantPayout, payableAvailableAt, payoutScheduleStanding } from '@app/read-models';
import { payoutSettingsInForce } from '../payout-settings/payout-settings-in-force';
import type { PayoutBooksDeps } from './payout-books-deps';

/**
 * How long a payout waits for the ledger to post what the log held when it began. Unlike a command's
 * read-your-writes wait, it is no courtesy: the balance is only the amount to pay once the ledger has
 * it, so a projector that does not get there answers PAYOUT_LEDGER_BEHIND instead of a payout.
 */
const LEDGER_WAIT_MS = 30_000;

/**
 * The destination in force: the destination's own stream (small, read whole), or, for a merchant who
 * has set none there, the latest version from its payout account stream as the read model keeps it
 * (paused when a payout to it failed), so the account's history is never folded.
 */
export async function payoutDestination(runner: CommandRunner, db: SqlExecutor, merchantId: string): Promise<{ stream: KnownStream<PayoutDestinationState>; legacy?: DestinationInForce; inForce?: DestinationInForce }> {
  const stream = await runner.read(streams.payoutDestination(merchantId), payoutDestinationDecider);
  if (stream.state.current) return { stream, inForce: destinationInForce(stream.state, undefined) };
  const [latest, standing] = await Promise.all([latestDestinationVersion(db, merchantId), payoutScheduleStanding(db, merchantId)]);
  const legacy = latest && { ...latest, paused: standing.pausedByPayoutId !== null };
  return { stream, legacy, inForce: destinationInForce(stream.state, legacy) };
}

/**
 * Whether a platform's seller account may be paid out now (verified, nothing missing, its destination
 * not just changed), read from its own stream; undefined for any other merchant, which always may.
 */
async function accountStanding(runner: CommandRunner, merchantId: string, destination: DestinationInForce | undefined, at: string, holdMs: number): Promise<PayoutStanding | undefined> {
  if (!isAccountId(merchantId)) return undefined;
  const { state } = await runner.read(streams.account(merchantId), accountDecider);
  if (!state.account) return { payable: false, reason: 'ACCOUNT_NOT_VERIFIED' };
  // A destination from before it had a stream of its own tells no time it was set: no account had one, so no hold.
  const onFile = destination && { holderName: destination.destination.holderName, version: destination.version, setAt: destination.setAt ?? new Date(0).toISOString() };
  return payoutStanding(state.account, onFile, new Date(at), holdMs);
}

/**
 * A payout of the payable's available balance (its balance less the credits the holding period still
 * keeps at the ask's instant) and the fees' balance, decided at the merchant's books (`payout-books-{merchantId}`):
 * their last event is read, then the ledger is waited for until it has posted everything the log held
 * then (each earlier payout's request, each failure's return), then the balance is read with the
 * ledger's position in one snapshot, and the payout's stream and the books' next event are appended
 * together at the books' revision. Another payout decided meanwhile moves the books, and this one is
 * decided again from its reads. The result: the payout's request, or undefined when there was nothing
 * to do; the same id again answers the payout it made.
 */
export async function requestPayout(deps: PayoutBooksDeps, ask: PayoutAsk, metadata: EventMetadata): Promise<PayoutRequested | undefined> {
  const { runner, store, db } = deps;
  const { merchantId, payoutId } = ask;
  const books = streams.payoutBooks(merchantId);
  const payout = streams.payout(payoutId);
  const { result } = await runner.decideAcross(async () => {
    const [booked, existing] = await Promise.all([store.readLastEvent(books), store.readStream(payout)]);
    if (existing.length > 0) return { appends: [], result: { type: 'PayoutRequested', data: existing[0].data } as PayoutRequested };
    const head = await store.head();
    const [settings, destination] = await Promise.all([payoutSettingsInForce(runner, db, merchantId), payoutDestination(runner, db, merchantId), deps.progress.waitFor(head, LEDGER_WAIT_MS)]);
    const [{ balance, fees, notYetAvailable, through }, listed] = await Promise.all([payableAvailableAt(db, merchantId, new Date(ask.at)), merchantPayout(db, payoutId, merchantId)]);
    if (comparePositions(through, head) < 0) throw new PayoutLedgerBehind();
    // A period its payout account stream (payouts-{merchantId}) already paid, from before payouts had streams of their own, is paid.
    if (listed) return { appends: [], result: undefined };
    const after = (booked && payoutsThroughOf(booked as unknown as BooksEvent)) ?? (await lastAccountPayoutPosition(db, merchantId, through));
    const standing = await accountStanding(runner, merchantId, destination.inForce, ask.at, deps.payoutHoldMs);
    const basis = { exists: false, settings, destination: destination.inForce, balance, fees, notYetAvailable, after, through: formatPosition(through), standing };
    const requested = decidePayoutRequest(ask, basis);
    if (!requested) return { appends: [], result: undefined };
    return {
      appends: [
        { streamId: payout, events: [requested], expected: 'no_stream' as const },
        { streamId: books, events: [{ type: 'PayoutBooked', data: { merchantId, payoutId, through: requested.data.through } }], expected: booked ? booked.revision : ('no_stream' as const) },
      ],
      result: requested,
    };
  }, metadata);
  return result;
}
