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
  /** When this version was set (absent for one carried over from the payout account stream): a seller account's hold after a change counts from it. */
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
 * `account`: the merchant is a platform's seller account, as it stands, whose payouts a change may hold
 * for `holdMs` (account-payability.ts `replacingHolds`).
 */
export type SetPayoutDestination = {
  type: 'SetPayoutDestination';
  data: { merchantId: string; destination: PayoutDestination; at: string; account?: { standing: StandingAccount; holdMs: number } };
};

/** The destination in force as an account's requirements and hold look at it (one carried over from the payout account stream tells no time: no account had one). */
export const destinationOnFile = (inForce: DestinationInForce): DestinationOnFile => ({
  holderName: inForce.destination.holderName,
  version: inForce.version,
  setAt: inForce.setAt ?? new Date(0).toISOString(),
  ...(inForce.holds === undefined ? {} : { holds: inForce.holds }),
});

export function destinationInForce(state: PayoutDestinationState): DestinationInForce | undefined {
  if (!state.current) return undefined;
  return { ...state.current, paused: state.failed?.version === state.current.version };
}

const sameDestination = (a: PayoutDestination, b: PayoutDestination) =>
  a.kind === b.kind && a.institution === b.institution && a.holderName === b.holderName && a.accountFingerprint === b.accountFingerprint;

/**
 * The PayoutDestinationFailed a payout's failure writes with it: only for a payout to the version in
 * force (one to an earlier version says nothing of the account the merchant set since).
 */
export function destinationFailure(state: PayoutDestinationState, payout: { merchantId: string; payoutId: string; destinationVersion: number }, at: string): PayoutDestinationEvent | undefined {
  const inForce = destinationInForce(state);
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
  decide: ({ data: { merchantId, destination, at, account } }, state) => {
    const inForce = destinationInForce(state);
    // The same account set again after a payout to it failed is the merchant saying it is fixed: a new version, and the schedule resumes.
    if (inForce && !inForce.paused && sameDestination(inForce.destination, destination)) return [];
    const holds = account && replacingHolds(account.standing, inForce && destinationOnFile(inForce), new Date(at), account.holdMs);
    return [{ type: 'PayoutDestinationSet', data: { merchantId, version: (inForce?.version ?? 0) + 1, destination, setAt: at, ...(holds === undefined ? {} : { holds }) } }];
  },
};
