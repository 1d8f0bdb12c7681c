import { given } from '../testing/given';
import type { StandingAccount } from '../account/account-payability';
import { payoutStanding } from '../account/account-payability';
import { payoutDestinationDecider, type PayoutDestinationEvent, type SetPayoutDestination } from './payout-destination.decider';
import type { PayoutDestination } from './payout.events';

const HOUR = 3_600_000;
const HOLD = 24 * HOUR;
const T0 = '2026-11-20T08:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR).toISOString();

const verified: StandingAccount = { status: 'VERIFIED', type: 'individual', name: 'Meron Spices' };
const pending: StandingAccount = { ...verified, status: 'PENDING_VERIFICATION' };

const account = (holder: string, number: string): PayoutDestination => ({
  kind: 'bank',
  institution: '946',
  holderName: holder,
  accountMask: `******${number.slice(-4)}`,
  accountRef: `ref-${number}`,
  accountFingerprint: `fp-${number}`,
});
const mine = account('Meron Spices', '1000123456789');
const typo = account('Meron Spcies', '1000123456789');
const other = account('MERON  SPICES', '2000123456789');

const set = (destination: PayoutDestination, hours: number, standing: StandingAccount = verified): SetPayoutDestination => ({
  type: 'SetPayoutDestination',
  data: { merchantId: 'acct_1', destination, at: at(hours), account: { standing, holdMs: HOLD } },
});
const setEvent = (version: number, destination: PayoutDestination, hours: number, holds?: boolean): PayoutDestinationEvent => ({
  type: 'PayoutDestinationSet',
  data: { merchantId: 'acct_1', version, destination, setAt: at(hours), ...(holds === undefined ? {} : { holds }) },
});

/** Issue 42: the 24-hour hold after a change applies only when a payable destination is replaced. */
describe("a seller account's destination change holds its payouts only when it replaces a payable destination", () => {
  it('holds nothing for a first destination', () => {
    given(payoutDestinationDecider, []).when(set(mine, 0)).then([setEvent(1, mine, 0, false)]);
  });

  it('holds nothing when the destination replaced was never payable: a typo in the holder, or an account not verified yet', () => {
    given(payoutDestinationDecider, [setEvent(1, typo, 0, false)]).when(set(mine, 1)).then([setEvent(2, mine, 1, false)]);
    given(payoutDestinationDecider, [setEvent(1, mine, 0, false)]).when(set(other, 1, pending)).then([setEvent(2, other, 1, false)]);
  });

  it('holds when a payable destination is replaced, and keeps holding while a held one is replaced again', () => {
    given(payoutDestinationDecider, [setEvent(1, mine, 0, false)]).when(set(other, 30)).then([setEvent(2, other, 30, true)]);
    // Replaced within its hold, even by a holder who is not the account: a second change never ends the first one's hold.
    given(payoutDestinationDecider, [setEvent(1, mine, 0, false), setEvent(2, typo, 30, true)]).when(set(other, 31)).then([setEvent(3, other, 31, true)]);
    // After the hold, a destination that is not payable (the holder's typo) holds nothing when it is corrected.
    given(payoutDestinationDecider, [setEvent(1, mine, 0, false), setEvent(2, typo, 30, true)]).when(set(mine, 60)).then([setEvent(3, mine, 60, false)]);
  });

  it('writes no hold for a merchant of its own, which is no account', () => {
    given(payoutDestinationDecider, [setEvent(1, mine, 0)])
      .when({ type: 'SetPayoutDestination', data: { merchantId: 'acct_1', destination: other, at: at(1) } })
      .then([setEvent(2, other, 1)]);
  });

  it('reads a change recorded before the rule as the old rule did: every change after the first held', () => {
    const standing = (version: number, holds?: boolean) => payoutStanding(verified, { holderName: 'Meron Spices', version, setAt: at(0), ...(holds === undefined ? {} : { holds }) }, new Date(at(1)), HOLD);
    expect(standing(2)).toEqual({ payable: false, reason: 'DESTINATION_CHANGE_HOLD', heldUntil: at(24) });
    expect(standing(1)).toEqual({ payable: true });
    expect(standing(2, false)).toEqual({ payable: true });
    expect(standing(1, true)).toEqual({ payable: false, reason: 'DESTINATION_CHANGE_HOLD', heldUntil: at(24) });
  });
});
