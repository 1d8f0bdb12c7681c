import { type BooksEvent, payoutsThroughOf } from './payout-books';
import type { PayoutDestinationState } from './payout-destination.decider';
import { type PayoutSettingsState, type SettingsInForce, settingsAfter } from './payout-settings.decider';
import type { CarriedPayout, PayoutDestination, PayoutEvent, PayoutStatus } from './payout.events';

/** What releases before each payout, its settings and its destination had streams of their own wrote in a merchant's payout account stream (`payouts-{merchantId}`). */
export type PayoutAccountEvent = Extract<
  PayoutEvent,
  { type: 'PayoutDestinationSet' | 'PayoutSettingsChanged' | 'PayoutRequested' | 'PayoutSent' | 'PayoutPaid' | 'PayoutFailed' | 'PayoutAccountCarriedOver' }
>;

/** An event of the payout account stream and where it stands in the log (formatted: a payout's range begins after its request's). */
export interface PayoutAccountRecord {
  event: PayoutAccountEvent;
  position: string;
}

/** The streams the payout account stream is carried to, as they stand. */
export interface CarryOverTargets {
  destination: PayoutDestinationState;
  settings: PayoutSettingsState;
  /** The books' last event; none before the merchant's first payout or transfer of the newer generation. */
  booked?: BooksEvent;
  /** The payouts that have a stream of their own already. */
  ownStreams: ReadonlySet<string>;
}

type Of<Type extends PayoutEvent['type']> = Extract<PayoutEvent, { type: Type }>;

/** Each stream's events, the payout account stream's mark last. */
export interface CarryOver {
  destination?: Of<'PayoutDestinationCarriedOver'>;
  settings?: Of<'PayoutSettingsCarriedOver'>;
  payouts: Of<'PayoutCarriedOver'>[];
  booked?: Of<'PayoutBooked'>;
  carried: Of<'PayoutAccountCarriedOver'>;
}

const STATUS_AFTER = { PayoutSent: 'SENT', PayoutPaid: 'PAID', PayoutFailed: 'FAILED' } as const satisfies Record<string, PayoutStatus>;

/** The payout account stream folded: what the carry-over copies, as that stream's read paths took it. */
interface AccountFold {
  destinations: Map<number, PayoutDestination>;
  current?: number;
  /** The last payout that failed to the current version: it paused the schedule until a new version (payoutScheduleStanding's `pausedByPayoutId`). */
  failed?: string;
  settings?: SettingsInForce;
  payouts: Map<string, { request: Of<'PayoutRequested'>['data']; status: PayoutStatus }>;
  lastRequest?: PayoutAccountRecord;
}

function fold(history: readonly PayoutAccountRecord[]): AccountFold {
  const account: AccountFold = { destinations: new Map(), payouts: new Map() };
  for (const record of history) {
    const { event } = record;
    switch (event.type) {
      case 'PayoutDestinationSet':
        account.destinations.set(event.data.version, event.data.destination);
        account.current = event.data.version;
        account.failed = undefined;
        break;
      case 'PayoutSettingsChanged':
        account.settings = settingsAfter(account.settings, event.data);
        break;
      case 'PayoutRequested':
        account.payouts.set(event.data.payoutId, { request: event.data, status: 'REQUESTED' });
        account.lastRequest = record;
        break;
      case 'PayoutSent':
      case 'PayoutPaid':
      case 'PayoutFailed': {
        const payout = account.payouts.get(event.data.payoutId);
        if (!payout) break;
        payout.status = STATUS_AFTER[event.type];
        if (event.type === 'PayoutFailed' && payout.request.destinationVersion === account.current) account.failed = event.data.payoutId;
        break;
      }
      case 'PayoutAccountCarriedOver':
        break;
    }
  }
  return account;
}

/**
 * The one carry-over of a merchant's payout account stream to the streams of the newer generation,
 * appended, never rewriting what that stream holds: each of its payouts into a stream of its own (as
 * it stood: an outcome still awaited is recorded there from now on); its destination and settings into
 * theirs, unless the merchant has set new ones there since (those are in force); and, when the books
 * name no payout yet, its last payout's request as where the next payout's range begins. Undefined when
 * the stream is carried over already (its mark is its last event) or holds nothing.
 */
export function carryOverPayoutAccount(merchantId: string, history: readonly PayoutAccountRecord[], targets: CarryOverTargets, at: string): CarryOver | undefined {
  if (history.length === 0 || history[history.length - 1].event.type === 'PayoutAccountCarriedOver') return undefined;
  const account = fold(history);
  const payouts = [...account.payouts.values()]
    .filter(({ request }) => !targets.ownStreams.has(request.payoutId))
    .map(({ request, status }): Of<'PayoutCarriedOver'> => {
      const destination = request.destination ?? account.destinations.get(request.destinationVersion);
      const data: CarriedPayout = { ...request, ...(destination && { destination }), status, carriedAt: at };
      return { type: 'PayoutCarriedOver', data };
    });
  const version = account.current;
  const destination: CarryOver['destination'] =
    version === undefined || targets.destination.current
      ? undefined
      : {
          type: 'PayoutDestinationCarriedOver',
          data: { merchantId, version, destination: account.destinations.get(version)!, ...(account.failed && { failed: { payoutId: account.failed } }), carriedAt: at },
        };
  const { settings } = account;
  const carriedSettings: CarryOver['settings'] =
    !settings || targets.settings.settings
      ? undefined
      : { type: 'PayoutSettingsCarriedOver', data: { merchantId, version: settings.version, settings: settings.settings, scheduleSetAt: new Date(settings.scheduleSetAt).toISOString(), carriedAt: at } };
  const last = account.lastRequest;
  const unbooked = !targets.booked || payoutsThroughOf(targets.booked) === undefined;
  const booked: CarryOver['booked'] =
    last && unbooked && last.event.type === 'PayoutRequested' ? { type: 'PayoutBooked', data: { merchantId, payoutId: last.event.data.payoutId, through: last.position } } : undefined;
  return {
    ...(destination && { destination }),
    ...(carriedSettings && { settings: carriedSettings }),
    payouts,
    ...(booked && { booked }),
    carried: { type: 'PayoutAccountCarriedOver', data: { merchantId, payouts: payouts.length, carriedAt: at } },
  };
}
