import type { Decider } from '../shared/decider';
import { replacingHolds, type StandingAccount } from '../account/account-payability';
import type { DestinationOnFile } from '../account/account-requirements';
import type { PayoutDestination, PayoutEvent } from './payout.events';

export type PayoutDestinationEvent = Extract<PayoutEvent, { type: 'PayoutDestinationSet' | 'PayoutDestinationFailed' | 'PayoutDestinationCarriedOver' }>;

/** The destination payouts go to now; `paused`: a payout to this very version failed, so the schedule sends nothing until it is set again. */
export interface DestinationInForce {
  version: number;
  destination: PayoutDestination;
  paused: boolean;
  /** When this version was set (absent for one from the payout account stream's read model): a seller account's hold after a change counts from it. */
  setAt?: string;
  /** Whether setting it held a seller account's payouts (PayoutDestinationSet `holds`). */
  holds?: boolean;
}

/**
 * A merchant's payout destination in a stream of its own (`payout-destination-{merchantId}`): its
 * versions, and the version a payout last failed to. Small: a command reads it whole.
 */
export interface PayoutDestinationState {
  current?: { version: number; destination: PayoutDestination; setAt?: string; holds?: boolean };
  failed?: { version: number; payoutId: string };
}

/**
 * `legacy`: the destination in force from the merchant's payout account stream (`payouts-{merchantId}`,
 * from before the destination had a stream of its own), as its read model keeps it; this stream
 * continues from it until the merchant sets one here. `account`: the merchant is a platform's seller
 * account, as it stands, whose payouts a change may hold for `holdMs` (account-payability.ts `replacingHolds`).
 */
export type SetPayoutDestination = {
  type: 'SetPayoutDestination';
  data: { merchantId: string; destination: PayoutDestination; at: string; legacy?: DestinationInForce; account?: { standing: StandingAccount; holdMs: number } };
};

/** The destination in force as an account's requirements and hold look at it (one from before destinations had a stream of their own tells no time: no account had one). */
export const destinationOnFile = (inForce: DestinationInForce): DestinationOnFile => ({
  holderName: inForce.destination.holderName,
  version: inForce.version,
  setAt: inForce.setAt ?? new Date(0).toISOString(),
  ...(inForce.holds === undefined ? {} : { holds: inForce.holds }),
});

export function destinationInForce(state: PayoutDestinationState, legacy: DestinationInForce | undefined): DestinationInForce | undefined {
  if (!state.current) return legacy && { ...legacy, paused: legacy.paused || state.failed?.version === legacy.version };
  return { ...state.current, paused: state.failed?.version === state.current.version };
}

const sameDestination = (a: PayoutDestination, b: PayoutDestination) =>
  a.kind === b.kind && a.institution === b.institution && a.holderName === b.holderName && a.accountFingerprint === b.accountFingerprint;

/**
 * The PayoutDestinationFailed a payout's failure writes with it: only for a payout to the version in
 * force (one to an earlier version says nothing of the account the merchant set since).
 */
export function destinationFailure(state: PayoutDestinationState, legacy: DestinationInForce | undefined, payout: { merchantId: string; payoutId: string; destinationVersion: number }, at: string): PayoutDestinationEvent | undefined {
  const inForce = destinationInForce(state, legacy);
  if (inForce?.version !== payout.destinationVersion || inForce.paused) return undefined;
  return { type: 'PayoutDestinationFailed', data: { merchantId: payout.merchantId, version: payout.destinationVersion, payoutId: payout.payoutId, failedAt: at } };
}

export const payoutDestinationDecider: Decider<SetPayoutDestination, PayoutDestinationEvent, PayoutDestinationState> = {
  initialState: () => ({}),
  evolve: (state, event) => {
    switch (event.type) {
      case 'PayoutDestinationSet':
        return {
          ...state,
          current: { version: event.data.version, destination: event.data.destination, setAt: event.data.setAt, ...(event.data.holds === undefined ? {} : { holds: event.data.holds }) },
        };
      case 'PayoutDestinationCarriedOver': {
        const { version, destination, failed } = event.data;
        return { current: { version, destination }, ...(failed ? { failed: { version, payoutId: failed.payoutId } } : state.failed && { failed: state.failed }) };
      }
      case 'PayoutDestinationFailed':
        return { ...state, failed: { version: event.data.version, payoutId: event.data.payoutId } };
    }
  },
  decide: ({ data: { merchantId, destination, at, legacy, account } }, state) => {
    const inForce = destinationInForce(state, legacy);
    // The same account set again after a payout to it failed is the merchant saying it is fixed: a new version, and the schedule resumes.
    if (inForce && !inForce.paused && sameDestination(inForce.destination, destination)) return [];
    const holds = account && replacingHolds(account.standing, inForce && destinationOnFile(inForce), new Date(at), account.holdMs);
    return [{ type: 'PayoutDestinationSet', data: { merchantId, version: (inForce?.version ?? 0) + 1, destination, setAt: at, ...(holds === undefined ? {} : { holds }) } }];
  },
};
