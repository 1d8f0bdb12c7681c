import type { Decider } from '../shared/decider';
import type { Santim } from '../shared/money';
import { PayoutNotCancelable, PayoutNotFound } from './payout.errors';
import type { PayoutCommand, PayoutDestination, PayoutEvent, PayoutStatus } from './payout.events';

export type SinglePayoutEvent = Extract<PayoutEvent, { type: 'PayoutRequested' | 'PayoutCarriedOver' | 'PayoutSent' | 'PayoutPaid' | 'PayoutFailed' | 'PayoutCanceled' }>;

/** One payout, in its own stream (`payout-{payoutId}`): a handful of events, read whole by any command on it. */
export interface SinglePayoutState {
  payout?: {
    merchantId: string;
    payoutId: string;
    amount: Santim;
    /** The part of `amount` from the fees account (PayoutRequested's `fees`): a failure gives it back there. */
    fees?: number;
    status: PayoutStatus;
    destinationVersion: number;
    destination?: PayoutDestination;
  };
}

const finished = (status: PayoutStatus) => status === 'PAID' || status === 'FAILED' || status === 'CANCELED';

const STATUS_AFTER: Record<Exclude<SinglePayoutEvent['type'], 'PayoutRequested' | 'PayoutCarriedOver'>, PayoutStatus> = { PayoutSent: 'SENT', PayoutPaid: 'PAID', PayoutFailed: 'FAILED', PayoutCanceled: 'CANCELED' };

/**
 * The provider's outcomes of a payout, and its cancellation; its request is decided across the merchant's
 * books (decidePayoutRequest). The worker records PayoutSent in this stream before it hands the transfer to
 * the provider (ProcessPayout, libs/payments/src/flow/process-payout/process-payout.ts), so a cancellation and a send, decided here at the stream's revision,
 * exclude each other: the one appended first stands, and the other finds SENT or CANCELED.
 */
export const singlePayoutDecider: Decider<PayoutCommand, SinglePayoutEvent, SinglePayoutState> = {
  initialState: () => ({}),
  evolve: (state, event) => {
    if (event.type === 'PayoutRequested' || event.type === 'PayoutCarriedOver') {
      const { merchantId, payoutId, amount, fees, destinationVersion, destination } = event.data;
      const status = event.type === 'PayoutRequested' ? 'REQUESTED' : event.data.status;
      return { payout: { merchantId, payoutId, amount, ...(fees ? { fees } : {}), status, destinationVersion, ...(destination && { destination }) } };
    }
    return { payout: { ...state.payout!, status: STATUS_AFTER[event.type] } };
  },
  decide: (command, { payout }) => {
    if (!payout) throw new PayoutNotFound(command.data.payoutId);
    const { merchantId, payoutId, amount, fees } = payout;
    switch (command.type) {
      case 'RecordPayoutSent':
        return payout.status === 'REQUESTED' ? [{ type: 'PayoutSent', data: { merchantId, payoutId, providerReference: command.data.providerReference, sentAt: command.data.at } }] : [];
      case 'RecordPayoutPaid':
        // The provider's first outcome stands: a report after it changes nothing.
        if (finished(payout.status)) return [];
        return [{ type: 'PayoutPaid', data: { merchantId, payoutId, amount, externalReferenceId: command.data.externalReferenceId, paidAt: command.data.at, callbackUrl: command.data.callbackUrl } }];
      case 'RecordPayoutFailed':
        if (finished(payout.status)) return [];
        return [{ type: 'PayoutFailed', data: { merchantId, payoutId, amount, ...(fees ? { fees } : {}), reason: command.data.reason, failedAt: command.data.at, callbackUrl: command.data.callbackUrl } }];
      case 'CancelPayout':
        if (payout.status === 'CANCELED') return [];
        if (payout.status !== 'REQUESTED') throw new PayoutNotCancelable(payoutId, payout.status);
        return [{ type: 'PayoutCanceled', data: { merchantId, payoutId, amount, ...(fees ? { fees } : {}), canceledAt: command.data.at, callbackUrl: command.data.callbackUrl } }];
    }
  },
};
