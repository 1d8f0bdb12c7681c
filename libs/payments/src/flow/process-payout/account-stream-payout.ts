import { type PayoutCommand, singlePayoutDecider, type SinglePayoutState, streams } from '@app/domain';
import type { EventMetadata, EventStore, LogPosition } from '@app/event-store';
import type { CommandRunner } from '@app/infrastructure';

export type AccountStreamPayoutState = NonNullable<SinglePayoutState['payout']>;

/**
 * The payout as the payouts view shows it once the view has applied the log up to `position`;
 * undefined when the view does not know it. It throws when the view does not get there: an outcome
 * decided on a view behind the stream could be one the stream holds already.
 */
/** What a payout knows of its stream: the state and revision its last read or append left. */
interface Known {
  payout: AccountStreamPayoutState;
  revision: bigint;
}

export type PayoutViewAt = (merchantId: string, payoutId: string, position: LogPosition) => Promise<AccountStreamPayoutState | undefined>;

/**
 * A payout of the merchant's payout account stream (`payouts-{merchantId}`), from before each payout
 * had a stream of its own, still in flight: its outcomes are recorded there. They are decided on the
 * payouts view at the stream's last event and appended at that event's revision; when another writer
 * moved the stream meanwhile, the last event and the view are read again, never the stream's history,
 * so an outcome costs the same after ten payouts of the account or ten thousand. The view then shows
 * an outcome the other writer recorded, and the same outcome is not recorded twice.
 */
export class AccountStreamPayout {
  private constructor(
    private readonly runner: CommandRunner,
    private readonly store: Pick<EventStore, 'readLastEvent'>,
    private readonly viewAt: PayoutViewAt,
    /** Taken for the next decision's first try. */
    private known: Known,
  ) {}

  /** The payout as the view shows it at the stream's last event; undefined when the stream or the view has no such payout. */
  static async find(
    runner: CommandRunner,
    store: Pick<EventStore, 'readLastEvent'>,
    viewAt: PayoutViewAt,
    merchantId: string,
    payoutId: string,
  ): Promise<AccountStreamPayout | undefined> {
    const known = await AccountStreamPayout.read(store, viewAt, merchantId, payoutId);
    return known && new AccountStreamPayout(runner, store, viewAt, known);
  }

  private static async read(store: Pick<EventStore, 'readLastEvent'>, viewAt: PayoutViewAt, merchantId: string, payoutId: string): Promise<Known | undefined> {
    const last = await store.readLastEvent(streams.payouts(merchantId));
    // Carried over (carry-over-payout-accounts.ts), its payouts' outcomes are recorded in their own streams, never after the mark.
    if (!last || last.type === 'PayoutAccountCarriedOver') return undefined;
    const payout = await viewAt(merchantId, payoutId, last.position);
    return payout && { payout, revision: last.revision };
  }

  get payout(): AccountStreamPayoutState {
    return this.known.payout;
  }

  /** Records an outcome once: the provider's first outcome stands (the single payout's rules), whoever records it. */
  async record(command: PayoutCommand, metadata: EventMetadata): Promise<void> {
    const { merchantId, payoutId } = this.known.payout;
    let basis: Known | undefined = this.known;
    const { result } = await this.runner.decideAcross(async () => {
      const decided = basis ?? (await AccountStreamPayout.read(this.store, this.viewAt, merchantId, payoutId));
      basis = undefined;
      if (!decided) return { appends: [], result: undefined };
      const events = singlePayoutDecider.decide(command, { payout: decided.payout });
      const after = events.reduce(singlePayoutDecider.evolve, { payout: decided.payout }).payout!;
      return {
        appends: [{ streamId: streams.payouts(merchantId), events, expected: decided.revision }],
        result: { payout: after, revision: decided.revision + BigInt(events.length) },
      };
    }, metadata);
    // Its next outcome (paid after sent) follows the one just written, or what the view showed.
    if (result) this.known = result;
  }
}
