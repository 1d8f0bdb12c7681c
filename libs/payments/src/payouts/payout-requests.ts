import {
  accountDecider,
  type CarriedPayout,
  decidePayoutRequest,
  type DestinationInForce,
  destinationInForce,
  destinationOnFile,
  type PayoutAsk,
  PayoutLedgerBehind,
  payoutDestinationDecider,
  type PayoutDestinationState,
  type PayoutRequested,
  type PayoutStanding,
  payoutStanding,
  payoutsThroughOf,
  streams,
} from '@app/domain';
import { comparePositions, type EventMetadata, formatPosition } from '@app/event-store';
import type { CommandRunner, KnownStream } from '@app/infrastructure';
import { payableAvailableAt } from '@app/read-models';
import { payoutSettingsInForce } from '../payout-settings/payout-settings-in-force';
import type { PayoutBooksDeps } from './payout-books-deps';
import { decideAtBooks } from './decide-at-books';

/**
 * How long a payout waits for the ledger to post what the log held when it began. Unlike a command's
 * read-your-writes wait, it is no courtesy: the balance is only the amount to pay once the ledger has
 * it, so a projector that does not get there answers PAYOUT_LEDGER_BEHIND instead of a payout.
 */
const LEDGER_WAIT_MS = 30_000;

/** The destination in force: the destination's own stream (small, read whole). */
export async function payoutDestination(runner: CommandRunner, merchantId: string): Promise<{ stream: KnownStream<PayoutDestinationState>; inForce?: DestinationInForce }> {
  const stream = await runner.read(streams.payoutDestination(merchantId), payoutDestinationDecider);
  return { stream, inForce: destinationInForce(stream.state) };
}

/**
 * Whether a platform's seller account may be paid out now (verified, nothing missing, its destination
 * not just changed), read from its own stream; undefined for any other merchant, which always may: a
 * party is an account when its account stream says so (a merchant has none), never by its id's shape.
 */
async function accountStanding(runner: CommandRunner, merchantId: string, destination: DestinationInForce | undefined, at: string, holdMs: number): Promise<PayoutStanding | undefined> {
  const { state } = await runner.read(streams.account(merchantId), accountDecider);
  if (!state.account) return undefined;
  return payoutStanding(state.account, destination && destinationOnFile(destination), new Date(at), holdMs);
}

/**
 * A payout of the payable's available balance (its balance less the credits the holding period still
 * keeps at the ask's instant) and the fees' balance, decided at the merchant's books (decideAtBooks):
 * the ledger must have posted everything the log held when it began (each earlier payout's request,
 * each failure's return), and the balance is read with the ledger's position in one snapshot. The
 * result: the payout's request, or undefined when there was nothing to do; the same id again answers
 * the payout it made.
 */
export async function requestPayout(deps: PayoutBooksDeps, ask: PayoutAsk, metadata: EventMetadata): Promise<PayoutRequested | undefined> {
  const { runner, db } = deps;
  const { merchantId, payoutId } = ask;
  const { result } = await decideAtBooks<PayoutRequested | undefined>(
    deps,
    {
      merchantId,
      streamId: streams.payout(payoutId),
      decided: ([first]) => {
        // A payout carried over from the payout account stream answers with the request it was made by there.
        const { status, carriedAt, ...data } = first.data as CarriedPayout;
        return { type: 'PayoutRequested', data } as PayoutRequested;
      },
      ledgerWaitMs: LEDGER_WAIT_MS,
      ledgerBehind: () => new PayoutLedgerBehind(),
      decide: async ({ booked, head, ledgerPosted }) => {
        const [settings, destination] = await Promise.all([payoutSettingsInForce(runner, merchantId), payoutDestination(runner, merchantId), ledgerPosted]);
        const { balance, fees, notYetAvailable, through } = await payableAvailableAt(db, merchantId, new Date(ask.at));
        if (comparePositions(through, head) < 0) throw new PayoutLedgerBehind();
        const after = (booked && payoutsThroughOf(booked)) ?? null;
        const standing = await accountStanding(runner, merchantId, destination.inForce, ask.at, deps.payoutHoldMs);
        const basis = { exists: false, settings, destination: destination.inForce, balance, fees, notYetAvailable, after, through: formatPosition(through), standing };
        const requested = decidePayoutRequest(ask, basis);
        if (!requested) return { result: undefined };
        return { result: requested, events: [requested], booked: { type: 'PayoutBooked', data: { merchantId, payoutId, through: requested.data.through } } };
      },
    },
    metadata,
  );
  return result;
}
